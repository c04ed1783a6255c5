# v39 call 4, carry [".gpu"]: the whole grouped kernel test file (call 2's 150 s limit cut it short).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v39-scripts/call4.sh
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 420 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py -rA \
  > $OUT/logs/test_grouped_full.log 2>&1
echo rc=$?; grep -c PASSED $OUT/logs/test_grouped_full.log
grep -E "FAILED|ERROR" $OUT/logs/test_grouped_full.log | head; tail -n 2 $OUT/logs/test_grouped_full.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

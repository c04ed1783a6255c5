# v40 call 1, carry [".gpu"]. What one undecided 16x16 tile costs by where it falls
# (undecided_position.py, about 2 min), then the whole fake-quantize kernel test file
# (v37 and v39 ran 254 and 262 of its 331 tests before 170 s limits).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v40-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 240 python3 bench/results/raw/h200-v40-scripts/undecided_position.py \
  > $OUT/logs/undecided_position.log 2>&1
echo "undecided_position rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/undecided_position.log | tail -n 14
timeout 300 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_fake_quantize_kernel.py -rA \
  > $OUT/logs/test_fake_quantize_full.log 2>&1
echo "test_fake_quantize rc=$? ($((SECONDS - start)) s)"; grep -c PASSED $OUT/logs/test_fake_quantize_full.log
grep -E "FAILED|ERROR" $OUT/logs/test_fake_quantize_full.log | head; tail -n 1 $OUT/logs/test_fake_quantize_full.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

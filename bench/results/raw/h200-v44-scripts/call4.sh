# v44 call 4, carry [".gpu"]. fos-cutedsl 0.6.13: setup_table the one-read kernel's
# default, the API allocating its workspace (the kernel code is call 3's, whose tunings
# test ran it as a tuning). test_dual_kernel.py but its tunings test (every variant
# through the API) and the op's layout tests, then dual_variants.py (bits checked first;
# the per-CTA table as a variant). Cut at 200 s (the device time left).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v44-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 140 python3 -m pytest -q -n 15 -p no:cacheprovider -k "not tunings" \
  tests/cutedsl/test_dual_kernel.py tests/op/test_layouts.py > $OUT/logs/test_dual.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_dual.log | head -20
tail -n 2 $OUT/logs/test_dual.log
timeout $((200 - SECONDS + start)) python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep " us " $OUT/logs/dual_variants.log
grep -c "exact=True" $OUT/logs/dual_variants.log; grep "exact=False" $OUT/logs/dual_variants.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

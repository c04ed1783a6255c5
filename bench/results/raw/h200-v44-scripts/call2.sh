# v44 call 2, carry [".gpu"]. dual_strips with its tasks in bands (each strip of a band of
# chunks run down in turn, so that each x^T row's codes of a band are written close in
# time): call 1 had found the strips kernel's columnwise half 2.6x slower than dual's,
# swizzled scales faster than plain (scattered partial-sector writes). dual_variants.py
# (bits checked first), then the strips kernel's bits test at the band tunings. Cut at 400 s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v44-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 200 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep " us " $OUT/logs/dual_variants.log
grep -c "exact=True" $OUT/logs/dual_variants.log; grep "exact=False" $OUT/logs/dual_variants.log
timeout $((400 - SECONDS + start)) python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_dual_strips_kernel.py > $OUT/logs/test_strips.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_strips.log | head -20
tail -n 2 $OUT/logs/test_strips.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v44 call 3, carry [".gpu"]. The one-read kernel (dual) with its scale table built once by a
# setup launch (DualConfig.setup_table; the kernel a programmatic dependent launch that
# copies the table), and the column repacking by prmt against the masks of before v44 (the
# same build otherwise): dual_variants.py (bits checked first), then test_dual_kernel.py
# (its tunings test covers setup_table) and the op's layout tests (the kernel now takes a
# workspace argument). Cut at 420 s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v44-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 150 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep " us " $OUT/logs/dual_variants.log
grep -c "exact=True" $OUT/logs/dual_variants.log; grep "exact=False" $OUT/logs/dual_variants.log
timeout $((420 - SECONDS + start)) python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_dual_kernel.py tests/op/test_layouts.py > $OUT/logs/test_dual.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_dual.log | head -20
tail -n 2 $OUT/logs/test_dual.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

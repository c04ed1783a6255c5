# v31 call 4, carry [".gpu"]. l2_ahead (each CTA asks L2 for the rows of the CTA that
# many launches later) in each tiling, timed against the defaults; its parity test.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v31-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 100 python3 -m pytest -q tests/cutedsl/test_row_amax_kernel.py -k l2_ahead \
  > $OUT/logs/tests_l2_ahead.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/tests_l2_ahead.log
timeout 240 python3 bench/row_amax_variants.py --dtype bfloat16 --rounds 2 --out $OUT \
  --only "v31" "(0.6.6)" "amax given" > $OUT/logs/row_amax_variants.log 2>&1
echo "row_amax_variants rc=$? ($((SECONDS - start)) s)"
grep -v Warn $OUT/logs/row_amax_variants.log | grep -E "exact=|x[0-9]+ "
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

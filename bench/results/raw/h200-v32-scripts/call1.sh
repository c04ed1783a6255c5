# v32 call 1, carry [".gpu"]. Warps looping over rows (rows_per_warp, the next row's
# cp.async in flight) and the queued min_blocks caps, timed against the warp default at
# 32768 x 2048 (bf16 two rounds; float16 and float32 one); their parity tests.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v32-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 bench/row_amax_variants.py --rounds 2 --out $OUT \
  --only "v32" "warp rows (0.6.6)" > $OUT/logs/variants-bfloat16.log 2>&1
echo "row_amax_variants bfloat16 rc=$? ($((SECONDS - start)) s)"
grep -v Warn $OUT/logs/variants-bfloat16.log | grep -E "exact=False|not built|x2048 |copy" | grep -v "per-row"
for dtype in float16 float32; do
  timeout 90 python3 bench/row_amax_variants.py --dtype $dtype --out $OUT \
    --only "warp rows (0.6.6)" "v32 loop 4 rows a warp, 4 a CTA" "v32 loop 8 rows a warp, 4 a CTA, 6" \
    > $OUT/logs/variants-$dtype.log 2>&1
  echo "row_amax_variants $dtype rc=$? ($((SECONDS - start)) s)"
  grep -v Warn $OUT/logs/variants-$dtype.log | grep -E "exact=False|not built|x2048 " | grep -v "per-row"
done
timeout 240 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_row_amax_kernel.py \
  -k "looping or rows_per_warp" > $OUT/logs/test_loop.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_loop.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

# v29 call 4 (not yet run), carry [".gpu"]. First set row_amax.TILINGS to v29's winners
# (warp: + xorsign_fold; pair: + xorsign_fold, row_tables; team: quantize_unroll=1) and
# rebuild the cache. Then: gpu_verify_elementwise's row_amax stage, and float16 / float32
# timings of the old and new tilings (bf16: call 3).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v29-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 tests/cutedsl/gpu_verify_elementwise.py --stages row_amax \
  --out $OUT/gpu_verify_row_amax.json > $OUT/logs/verify_row_amax.log 2>&1
echo "verify row_amax rc=$?"; tail -n 4 $OUT/logs/verify_row_amax.log
for dtype in float16 float32; do
  timeout 100 python3 bench/row_amax_variants.py --dtype $dtype --rounds 2 --out $OUT \
    --only "0.6.4" "xorsign fold" "unroll 1" > $OUT/logs/row_amax_variants-$dtype.log 2>&1
  echo "row_amax_variants $dtype rc=$?"
  grep -v Warn $OUT/logs/row_amax_variants-$dtype.log | grep -E "exact=False|x[0-9]+ " | grep -vE "row tables, (xorsign|unroll)|team rows, xorsign"
done
echo "total $((SECONDS - start)) s"

# v31 call 5, carry [".gpu"]. l2_ahead again, nearer (call 4: team rows 2% faster at 132
# CTAs ahead, register rows slower at 264 and more): bf16 two rounds, float16 and
# float32 one.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v31-scripts/call5.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
for spec in "bfloat16 2" "float16 1" "float32 1"; do
  set -- $spec
  timeout 150 python3 bench/row_amax_variants.py --dtype $1 --rounds $2 --out $OUT \
    --only "rows (0.6.6)" " 33 ahead" " 66 ahead" "132 ahead" "264 ahead" \
    > $OUT/logs/row_amax_variants-$1.log 2>&1
  echo "row_amax_variants $1 rc=$? ($((SECONDS - start)) s)"
  grep -v Warn $OUT/logs/row_amax_variants-$1.log | grep -E "exact=False|x[0-9]+ " \
    | grep -v "group amax\|per-row amax"
done
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

# v32 call 4, carry [".gpu"]. The warp rows' CTA build without group_amax (72 registers
# against the default's 80), three rounds at 32768 x 2048 (bf16; float16 and float32 two),
# beside the default, the warp build and the row-scaled quantize given the amax.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v32-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
for dtype in bfloat16 float16 float32; do
  rounds=2; [ $dtype = bfloat16 ] && rounds=3
  timeout 120 python3 bench/row_amax_variants.py --dtype $dtype --rounds $rounds --out $OUT \
    --only "v32 warp rows, CTA build" "v32 warp rows, warp build" "warp rows (0.6.6)" \
    > $OUT/logs/variants-$dtype.log 2>&1
  echo "row_amax_variants $dtype rc=$? ($((SECONDS - start)) s)"
  grep -v Warn $OUT/logs/variants-$dtype.log | grep -E "exact=False|not built|x2048 |copy" | grep -v "per-row"
done
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

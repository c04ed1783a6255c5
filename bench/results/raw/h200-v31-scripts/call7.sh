# v31 call 7, carry [".gpu"]. cta_build in the warp tiling's defaults: float16 and
# float32 timed with and without it; bench.py's quantize_row_amax records again; the
# row_amax verification stage and the row-amax test file on the final defaults.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v31-scripts/call7.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
for dtype in float16 float32; do
  timeout 45 python3 bench/row_amax_variants.py --dtype $dtype --out $OUT \
    --only "warp rows, CTA build" "warp rows, warp build" > $OUT/logs/variants-$dtype.log 2>&1
  echo "row_amax_variants $dtype rc=$? ($((SECONDS - start)) s)"
  grep -v Warn $OUT/logs/variants-$dtype.log | grep -E "exact=False|x2048 " | grep -v "per-row"
done
timeout 60 python3 bench/bench.py --ops quantize_row_amax --dtypes bfloat16 --buffers 2 \
  --repeat 2 --back-to-back --no-compiled --no-fouroversix --no-hot --no-plot \
  --out $OUT/bench_row_amax.json > $OUT/logs/bench_row_amax.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; grep -v Warn $OUT/logs/bench_row_amax.log | tail -n 7
timeout 70 python3 tests/cutedsl/gpu_verify_elementwise.py --stages row_amax \
  --out $OUT/gpu_verify_row_amax.json > $OUT/logs/verify_row_amax.log 2>&1
echo "verify row_amax rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/verify_row_amax.log
timeout 300 python3 -m pytest -q tests/cutedsl/test_row_amax_kernel.py \
  > $OUT/logs/test_row_amax.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_row_amax.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

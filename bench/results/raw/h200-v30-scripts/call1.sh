# v30 call 1, carry [".gpu"] (the bundle; no kernel cache: the device compiles).
# row_amax.TILINGS now carries v29's fastest tunings (warp: xorsign fold; pair: xorsign
# fold and row tables; team: quantize loop not unrolled). This call checks them one
# process wide (gpu_verify_elementwise's row_amax stage), times the old and new
# settings for float16 and float32 (bf16: v29 call 3), and records the op's numbers
# (bench.py --ops quantize_row_amax, bf16, 2 buffers x 2 runs, back to back too).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v30-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 tests/cutedsl/gpu_verify_elementwise.py --stages row_amax \
  --out $OUT/gpu_verify_row_amax.json > $OUT/logs/verify_row_amax.log 2>&1
echo "verify row_amax rc=$? ($((SECONDS - start)) s)"; tail -n 4 $OUT/logs/verify_row_amax.log
timeout 200 python3 bench/bench.py --ops quantize_row_amax --dtypes bfloat16 --buffers 2 \
  --repeat 2 --back-to-back --no-compiled --no-fouroversix --no-hot --no-plot \
  --out $OUT/bench_row_amax.json > $OUT/logs/bench_row_amax.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; grep -v Warn $OUT/logs/bench_row_amax.log | tail -n 12
for dtype in float16 float32; do
  timeout 90 python3 bench/row_amax_variants.py --dtype $dtype --rounds 2 --out $OUT \
    --only "0.6.4" "xorsign fold" "unroll 1" > $OUT/logs/row_amax_variants-$dtype.log 2>&1
  echo "row_amax_variants $dtype rc=$? ($((SECONDS - start)) s)"
  grep -v Warn $OUT/logs/row_amax_variants-$dtype.log | grep -E "exact=False|x[0-9]+ " \
    | grep -vE "row tables, (xorsign|unroll)|team rows, xorsign"
done
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

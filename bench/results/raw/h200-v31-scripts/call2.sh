# v31 call 2, carry [".gpu"]. The new defaults (row_amax.TILINGS: group_amax in "warp"
# and "team") checked one process wide (gpu_verify_elementwise's row_amax stage) and
# recorded (bench.py --ops quantize_row_amax, bf16, 2 buffers x 2 runs, back to back
# too); and cta_build (one warp builds the CTA's row entries) timed against them.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v31-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 120 python3 bench/row_amax_variants.py --dtype bfloat16 --rounds 2 --out $OUT \
  --only "v31" "warp rows (0.6.6)" "amax given" > $OUT/logs/row_amax_variants.log 2>&1
echo "row_amax_variants rc=$? ($((SECONDS - start)) s)"
grep -v Warn $OUT/logs/row_amax_variants.log | grep -E "exact=|x2048 "
timeout 200 python3 tests/cutedsl/gpu_verify_elementwise.py --stages row_amax \
  --out $OUT/gpu_verify_row_amax.json > $OUT/logs/verify_row_amax.log 2>&1
echo "verify row_amax rc=$? ($((SECONDS - start)) s)"; tail -n 4 $OUT/logs/verify_row_amax.log
timeout 200 python3 bench/bench.py --ops quantize_row_amax --dtypes bfloat16 --buffers 2 \
  --repeat 2 --back-to-back --no-compiled --no-fouroversix --no-hot --no-plot \
  --out $OUT/bench_row_amax.json > $OUT/logs/bench_row_amax.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; grep -v Warn $OUT/logs/bench_row_amax.log | tail -n 12
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

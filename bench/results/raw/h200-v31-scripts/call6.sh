# v31 call 6, carry [".gpu"]. The final defaults (row_amax.TILINGS: group_amax in "warp"
# and "team", l2_ahead 132 in "team"): the row-amax test file, the row_amax verification
# stage, and bench.py's quantize_row_amax records (bf16, 2 buffers x 2 runs, back to back).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v31-scripts/call6.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 bench/bench.py --ops quantize_row_amax --dtypes bfloat16 --buffers 2 \
  --repeat 2 --back-to-back --no-compiled --no-fouroversix --no-hot --no-plot \
  --out $OUT/bench_row_amax.json > $OUT/logs/bench_row_amax.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; grep -v Warn $OUT/logs/bench_row_amax.log | tail -n 7
timeout 150 python3 tests/cutedsl/gpu_verify_elementwise.py --stages row_amax \
  --out $OUT/gpu_verify_row_amax.json > $OUT/logs/verify_row_amax.log 2>&1
echo "verify row_amax rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/verify_row_amax.log
timeout 330 python3 -m pytest -q tests/cutedsl/test_row_amax_kernel.py \
  > $OUT/logs/test_row_amax.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_row_amax.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

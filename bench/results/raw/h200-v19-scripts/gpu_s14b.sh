# Session 14, call 2: the new kernels' tests (grouped, row amax, amax, fake's can_run), the op's
# GPU tests for them, gpu_verify_elementwise (every stage).
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit ${1:-unknown}"; date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv; } > $OUT/logs/state.txt
timeout 300 python3 -m pytest -q -n 8 -p no:cacheprovider --durations=15 -rfE \
  tests/cutedsl/test_grouped_kernel.py tests/cutedsl/test_row_amax_kernel.py tests/cutedsl/test_amax_kernel.py \
  tests/cutedsl/test_fake_quantize_kernel.py::test_cannot_run_says_why \
  "tests/op/test_gpu.py" -k "not test_kernel_path_matches_reference and not test_fake_quantize_kernel_matches" \
  > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "passed|failed|FAILED|ERROR" $OUT/logs/pytest.log | tail -n 30
timeout 170 python3 tests/cutedsl/gpu_verify_elementwise.py --out $OUT/h200-elementwise-verify.json > $OUT/logs/verify-elementwise.log 2>&1
echo "verify elementwise rc=$?"; tail -n 12 $OUT/logs/verify-elementwise.log
date -u >> $OUT/logs/state.txt
tar -C $OUT -czf $OUT/logs-s14b.tgz logs && rm -rf $OUT/logs

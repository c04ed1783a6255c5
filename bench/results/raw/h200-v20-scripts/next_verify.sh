# For the next session's first device calls (written after v20's device time ran out):
#   call A: bash bench/results/raw/h200-v20-scripts/next_verify.sh A COMMIT
#   call B: bash bench/results/raw/h200-v20-scripts/next_verify.sh B COMMIT
#   call C: bash bench/results/raw/h200-v20-scripts/next_verify.sh C COMMIT
# A: the one-read and grouped kernels' tests (their untested tunings' bits included), the
#    op GPU tests, then the tunings' times (dual_variants.py, grouped_variants.py).
# B: the rest of the GPU suite (the quantize and fake-quantize parity tests take most of it).
# C: gpu_verify_elementwise.py's grouped and layouts stages (written, never run).
# Verbose output, so a failure is named even when the call's time limit cuts the summary.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "part $1 commit ${2:-unknown}"; date -u; } > $OUT/logs/state.txt
if [ "$1" = A ]; then
  timeout 240 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE \
    tests/cutedsl/test_dual_kernel.py tests/cutedsl/test_grouped_kernel.py tests/op/test_gpu.py \
    > $OUT/logs/pytest-A.log 2>&1
  echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-A.log | tail -n 20
  timeout 200 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
  echo "variants rc=$?"; grep -v "^ *$" $OUT/logs/dual_variants.log | tail -n 70
  timeout 110 python3 bench/grouped_variants.py --out $OUT > $OUT/logs/grouped_variants.log 2>&1
  echo "grouped rc=$?"; tail -n 16 $OUT/logs/grouped_variants.log
elif [ "$1" = C ]; then
  timeout 540 python3 tests/cutedsl/gpu_verify_elementwise.py --stages grouped layouts \
    --out $OUT/gpu_verify_elementwise.json > $OUT/logs/verify-C.log 2>&1
  echo "verify rc=$?"; tail -n 20 $OUT/logs/verify-C.log
else
  timeout 540 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl \
    --ignore tests/cutedsl/test_dual_kernel.py --ignore tests/cutedsl/test_grouped_kernel.py \
    > $OUT/logs/pytest-B.log 2>&1
  echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-B.log | tail -n 20
  grep -c PASSED $OUT/logs/pytest-B.log
fi
date -u >> $OUT/logs/state.txt

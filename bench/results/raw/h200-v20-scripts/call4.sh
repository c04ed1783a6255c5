# Session 15, call 4: the whole GPU suite on the final kernels.
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit ${1:-unknown}"; date -u; } > $OUT/logs/state.txt
timeout 545 python3 -m pytest -q -n 10 -p no:cacheprovider --durations=10 -rfE \
  tests/cutedsl tests/op/test_gpu.py > $OUT/logs/pytest-suite.log 2>&1
echo "suite rc=$?"; grep -E "passed|failed|FAILED|ERROR" $OUT/logs/pytest-suite.log | tail -n 30
date -u >> $OUT/logs/state.txt

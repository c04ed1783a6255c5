# Session 15, call 5: the whole GPU suite again, verbose (call 4 was cut before its summary, one failure unnamed).
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit ${1:-unknown}"; date -u; } > $OUT/logs/state.txt
timeout 505 python3 -m pytest -v -n 12 -p no:cacheprovider --durations=10 -rfE \
  tests/cutedsl tests/op/test_gpu.py > $OUT/logs/pytest-suite-v.log 2>&1
echo "suite rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/pytest-suite-v.log | tail -n 30; grep -c PASSED $OUT/logs/pytest-suite-v.log
date -u >> $OUT/logs/state.txt

# Session 14, call 1: the whole GPU test suite to the end (8 workers), durations recorded.
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit $(git rev-parse HEAD 2>/dev/null || echo ${1:-unknown})"; date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,memory.used --format=csv; } > $OUT/logs/state.txt
timeout 560 python3 -m pytest -q -n 8 -p no:cacheprovider --durations=40 -rfE tests/cutedsl tests/op/test_gpu.py > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "passed|failed|FAILED|ERROR" $OUT/logs/pytest.log | tail -n 30
date -u >> $OUT/logs/state.txt
tar -C $OUT -czf $OUT/logs-s14a.tgz logs && rm -rf $OUT/logs

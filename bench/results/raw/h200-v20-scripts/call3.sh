# Session 15, call 3: the looping one-read kernel: its tests, then its tunings.
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit ${1:-unknown}"; date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv; } > $OUT/logs/state.txt
timeout 200 python3 -m pytest -q -n 12 -p no:cacheprovider --durations=4 -rfE \
  tests/cutedsl/test_dual_kernel.py tests/op/test_gpu.py -k "dual or rowwise_columnwise or layouts" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "passed|failed|FAILED|ERROR|Error" $OUT/logs/pytest.log | tail -n 25
timeout 300 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "variants rc=$?"; grep -v "^ *$" $OUT/logs/dual_variants.log | tail -n 60
date -u >> $OUT/logs/state.txt

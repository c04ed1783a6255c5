# Session 14, call 4: grouped kernels after the warp search (tests, bench), the amax test fix,
# the op's grouped/graph tests, host overhead.
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit ${1:-unknown}"; date -u; } > $OUT/logs/state.txt
timeout 240 python3 -m pytest -q -n 8 -p no:cacheprovider --durations=10 -rfE \
  tests/cutedsl/test_grouped_kernel.py tests/op/test_gpu.py -k "grouped or Grouped or graph or nan_amax" \
  > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "passed|failed|FAILED|ERROR" $OUT/logs/pytest.log | tail -n 20
export FOS_COMMIT=${1:-unknown}
timeout 200 python3 bench/bench.py --ops quantize quantize_grouped nan_amax_grouped nan_amax \
  --rows 32768 --cols 7168 2048 --dtypes bfloat16 --no-hot --no-compiled --buffers 2 --no-plot \
  --out $OUT/h200-grouped.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$?"; python3 bench/summary.py $OUT/h200-grouped.json | tail -n 16
timeout 90 python3 bench/overhead.py --out $OUT/h200-op-overhead.json > $OUT/logs/overhead.log 2>&1
echo "overhead rc=$?"; tail -n 16 $OUT/logs/overhead.log
timeout 60 python3 scratch/amax_sweep2.py > $OUT/logs/amax-sweep2.log 2>&1; echo "sweep rc=$?"; cat $OUT/logs/amax-sweep2.log
date -u >> $OUT/logs/state.txt
tar -C $OUT -czf $OUT/logs-s14d.tgz logs && rm -rf $OUT/logs

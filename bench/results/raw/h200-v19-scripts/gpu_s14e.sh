# Session 14, call 5: grouped kernels (binary search; amax combined per CTA), tests and bench.
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit ${1:-unknown}"; date -u; } > $OUT/logs/state.txt
timeout 230 python3 -m pytest -q -n 10 -p no:cacheprovider --durations=5 -rfE \
  tests/cutedsl/test_grouped_kernel.py tests/op/test_gpu.py -k "grouped" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "passed|failed|FAILED|ERROR" $OUT/logs/pytest.log | tail -n 20
export FOS_COMMIT=${1:-unknown}
timeout 150 python3 bench/bench.py --ops quantize quantize_grouped nan_amax_grouped nan_amax \
  --rows 32768 --cols 7168 2048 --dtypes bfloat16 --no-hot --no-compiled --buffers 2 --no-plot \
  --out $OUT/h200-grouped.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$?"; grep -E "grouped|nan_amax" $OUT/logs/bench.log | grep -E " fos " ; python3 bench/summary.py $OUT/h200-grouped.json | tail -n 8
date -u >> $OUT/logs/state.txt
tar -C $OUT -czf $OUT/logs-s14e.tgz logs && rm -rf $OUT/logs

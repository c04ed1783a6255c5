# Session 14, call 3: amax tunings; bench of the grouped ops beside quantize, amax, row amax.
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
timeout 120 python3 scratch/amax_sweep.py > $OUT/logs/amax-sweep.log 2>&1; echo "sweep rc=$?"; cat $OUT/logs/amax-sweep.log
export FOS_COMMIT=${1:-unknown}
timeout 400 python3 bench/bench.py --ops quantize nan_amax amax+quantize quantize_row_amax quantize_grouped nan_amax_grouped \
  --rows 32768 --cols 7168 2048 --dtypes bfloat16 --no-hot --no-compiled --buffers 2 --no-plot \
  --out $OUT/h200-grouped.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$?"; tail -n 40 $OUT/logs/bench.log
python3 bench/summary.py $OUT/h200-grouped.json | tail -n 40
tar -C $OUT -czf $OUT/logs-s14c.tgz logs && rm -rf $OUT/logs

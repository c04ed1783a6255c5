# Session 15, call 2: one-read kernel tunings, then the rowwise_columnwise bench rows.
set -uo pipefail
source scratch/gpu_prep.sh
mkdir -p $OUT/logs
{ echo "commit ${1:-unknown}"; date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv; } > $OUT/logs/state.txt
timeout 300 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "variants rc=$?"; grep -v "^ *$" $OUT/logs/dual_variants.log | tail -n 60
export FOS_COMMIT=${1:-unknown}
timeout 200 python3 bench/bench.py --ops rowwise_columnwise --dtypes bfloat16 --no-hot --no-compiled \
  --buffers 2 --no-plot --out $OUT/h200-layouts.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$?"; tail -n 30 $OUT/logs/bench.log
date -u >> $OUT/logs/state.txt

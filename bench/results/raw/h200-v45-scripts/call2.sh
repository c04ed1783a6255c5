# v45 call 2, carry [".gpu"]: issue 26's benchmark rows (both layouts from one read, plain and
# swizzled scales, beside rowwise + transpose copy + rowwise) on this tree, 3 runs x 2 buffers.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v45-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 500 python3 bench/bench.py --ops quantize_rowwise_columnwise --dtypes bfloat16 \
  --repeat 3 --buffers 2 --no-hot --no-compiled --no-plot --out $OUT/layouts.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 30 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

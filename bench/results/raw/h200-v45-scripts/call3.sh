# v45 call 3, carry [".gpu"], meant for an H200: 0.6.14's one-read kernel timed there,
# dual_variants (its A/Bs: 3 CTAs an SM, the table per CTA) and issue 26's benchmark rows.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v45-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep " us " $OUT/logs/dual_variants.log
timeout $((330 - SECONDS + start)) python3 bench/bench.py --ops quantize_rowwise_columnwise \
  --dtypes bfloat16 --repeat 3 --buffers 2 --no-hot --no-compiled --no-plot \
  --out $OUT/layouts.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 9 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v43 call 4, carry [".gpu", "scratch/peers/fouroversix/src"]. The benchmark's other ops on
# the machine at hand, with every in-run peer (the compiled reference, fouroversix):
# 3 runs x 2 buffers, back to back too; cut at 560 s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v43-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 560 python3 bench/bench.py --ops nan_amax dequantize fake_quantize amax+quantize \
  quantize_row_amax quantize_grouped nan_amax_grouped quantize_rowwise_columnwise \
  --repeat 3 --buffers 2 --back-to-back --no-plot --out $OUT/ops.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 60 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

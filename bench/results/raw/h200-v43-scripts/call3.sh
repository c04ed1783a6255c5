# v43 call 3, carry [".gpu"]. The benchmark's quantize rows on the machine at hand (the
# H200's are bench/results/h200.json): every shape, mode and dtype, mse, the small shapes,
# 3 runs x 2 buffers, back to back too; cut at 560 s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v43-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 560 python3 bench/bench.py --ops quantize --repeat 3 --buffers 2 --back-to-back \
  --no-plot --out $OUT/quantize.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 40 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

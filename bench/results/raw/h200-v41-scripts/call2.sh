# v41 call 2, carry [".gpu"]. gpu_verify.py's sweep and fuzz stages (random bit patterns:
# NaN, Inf and extreme scales through every variant's exact path), then v40 call 5's bf16
# quantize benchmark (to set beside h200-v40-call5/h200-quantize-v40.json).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v41-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 200 python3 tests/cutedsl/gpu_verify.py --stages sweep fuzz --out $OUT \
  > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 8 $OUT/logs/gpu_verify.log
timeout 230 python3 bench/bench.py --ops quantize --dtypes bfloat16 --repeat 3 --buffers 2 \
  --back-to-back --no-plot --out $OUT/h200-quantize-v41.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 5 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

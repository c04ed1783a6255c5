# v51 call 2, carry [".gpu"]: the whole benchmark on the current tree (every op, 2 runs x 2
# buffers, back to back, no peers but the in-run loop and transposed-copy baselines), cut at
# BENCH_S seconds (the JSON is written after every case).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [BENCH_S=480] bash bench/results/raw/h200-v51-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout ${BENCH_S:-480} python3 bench/bench.py --repeat 2 --buffers 2 --back-to-back \
  --no-compiled --no-fouroversix --no-plot --out $OUT/bench.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 80 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

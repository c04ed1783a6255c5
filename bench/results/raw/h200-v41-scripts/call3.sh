# v41 call 3, carry [".gpu"]. The whole benchmark (the command in h200.json; about 560 s),
# to replace v34's h200.json (0.6.8).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v41-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 585 python3 bench/bench.py --repeat 3 --buffers 2 --back-to-back --no-plot \
  --out $OUT/h200.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 5 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

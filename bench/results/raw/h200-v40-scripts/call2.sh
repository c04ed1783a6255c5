# v40 call 2, carry [".gpu"]. The rare-path knobs of the persistent 16x16 kernel against
# the default, on undecided_position.py's placements (rare_latency.py, about 3 min).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v40-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 400 python3 bench/results/raw/h200-v40-scripts/rare_latency.py \
  > $OUT/logs/rare_latency.log 2>&1
echo "rare_latency rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/rare_latency.log | tail -n 50

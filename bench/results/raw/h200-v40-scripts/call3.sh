# v40 call 3, carry [".gpu"]. Where rare_warm's cost on inputs without undecided tiles comes
# from: the warm-up's test compiled in but never true, the warm-up on the first item drawn
# from the counter, and on a flag carried through the item loop (rare_latency.py --warm).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v40-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 400 python3 bench/results/raw/h200-v40-scripts/rare_latency.py --warm \
  > $OUT/logs/rare_latency_warm.log 2>&1
echo "rare_latency --warm rc=$? ($((SECONDS - start)) s)"; tail -n 50 $OUT/logs/rare_latency_warm.log

# v29 call 1: v28's next.sh rows and groups in one call (one cold start), carry [".gpu"]:
#   bash .gpu/install.sh && bash bench/results/raw/h200-v29-scripts/call1.sh
# The small-shape sweep runs last, only with the time left under the 600 s limit.
set -uo pipefail
start=$SECONDS
bash bench/results/raw/h200-v28-scripts/next.sh rows
source bench/results/raw/h200-v22-scripts/gpu_prep.sh > /dev/null 2>&1
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
timeout 110 python3 bench/grouped_variants.py --tunings persistent "persistent, 3 groups" \
  --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; grep -E "exact=|E=" $OUT/logs/grouped_variants.log | tail -n 24
left=$((560 - (SECONDS - start)))
if [ $left -gt 60 ]; then
  timeout $left python3 bench/variants.py --sweep small-shapes --back-to-back \
    --shapes 8192x4096,32768x2048,32768x7168 --out $OUT > $OUT/logs/variants.log 2>&1
  echo "variants rc=$?"; grep -E "1x16|groups" $OUT/logs/variants.log | tail -n 30
fi
xz -9 $OUT/logs/pytest.log 2>/dev/null
echo "total $((SECONDS - start)) s"

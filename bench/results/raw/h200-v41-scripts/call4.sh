# v41 call 4, carry [".gpu"]. The persistent 16x16 work item, A/B (ab.py --set tile-items:
# units an item, units ahead, threads; bf16 mae; each variant's bits checked first), at the
# three issue-27 shapes, 2 buffers, L2-flushed and back-to-back times (about 8 min).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v41-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 560 python3 bench/ab.py --set tile-items --out $OUT > $OUT/logs/ab_tile_items.log 2>&1
echo "ab tile-items rc=$? ($((SECONDS - start)) s)"; tail -n 30 $OUT/logs/ab_tile_items.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

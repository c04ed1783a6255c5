# v42 call 1, carry [".gpu"]. gpu_verify.py's sweep and fuzz stages on fos-cutedsl 0.6.12
# (not yet run on it), the per-expert loop's time against the grouped call (loop_times.py),
# then the persistent 16x16 work-item A/B (ab.py --set tile-items,
# each variant's bits checked first) at the two issue-27 16x16 shapes nearest and
# furthest from their targets, cut at 540 s in all.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v42-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 200 python3 tests/cutedsl/gpu_verify.py --stages sweep fuzz --out $OUT \
  > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 8 $OUT/logs/gpu_verify.log
timeout 60 python3 bench/results/raw/h200-v42-scripts/loop_times.py --out $OUT \
  > $OUT/logs/loop_times.log 2>&1
echo "loop_times rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/loop_times.log
timeout $((540 - SECONDS + start)) python3 bench/ab.py --set tile-items \
  --shapes 32768x2048,8192x4096 --out $OUT > $OUT/logs/ab_tile_items.log 2>&1
echo "ab tile-items rc=$? ($((SECONDS - start)) s)"; tail -n 20 $OUT/logs/ab_tile_items.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

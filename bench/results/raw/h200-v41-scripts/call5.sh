# v41 call 5, carry [".gpu"]. In place of calls 2 and 4 when device time is short:
# gpu_verify.py's sweep and fuzz stages on 0.6.12, then the 16x16 work-item A/B
# (ab.py --set tile-items) at issue 27's two 16x16 shapes, cut by the call's limit.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v41-scripts/call5.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 200 python3 tests/cutedsl/gpu_verify.py --stages sweep fuzz --out $OUT \
  > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 8 $OUT/logs/gpu_verify.log
timeout $((360 - SECONDS + start)) python3 bench/ab.py --set tile-items \
  --shapes 32768x7168,8192x4096 --out $OUT > $OUT/logs/ab_tile_items.log 2>&1
echo "ab tile-items rc=$? ($((SECONDS - start)) s)"; tail -n 20 $OUT/logs/ab_tile_items.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

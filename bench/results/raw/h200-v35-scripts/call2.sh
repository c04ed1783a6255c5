# v35 call 2, carry [".gpu"]. The persistent 16x16 kernel with its next item copied into
# shared memory by cp.async (QuantizeConfig.copy_async, tile_stage): its parity tests over
# every input kind and the edge shapes, then the copy-async sweep against the register
# default at four shapes (time_us with the L2 flushed, and back to back).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v35-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
timeout 200 python3 -m pytest -q -n 12 -p no:cacheprovider tests/cutedsl/test_quantize_kernel.py \
  -k "many_items and copy-async" > $OUT/logs/test_copy_async.log 2>&1
echo "parity rc=$? ($((SECONDS - start)) s)"; tail -n 4 $OUT/logs/test_copy_async.log
timeout $((420 - (SECONDS - start))) python3 bench/variants.py --sweep copy-async --back-to-back \
  --shapes 32768x2048,8192x4096,32768x7168,16384x7168 --out $OUT > $OUT/logs/variants.log 2>&1
echo "variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/variants.log
timeout 120 ncu --profile-from-start off --clock-control none --section SpeedOfLight \
  --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
  python3 bench/results/raw/h200-v35-scripts/ncu_async.py > $OUT/logs/ncu_async.txt 2>&1
echo "ncu rc=$? ($((SECONDS - start)) s)"
grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Issue Slots Busy|No Eligible|Active Warps Per|stalled_(long|short|math|mio|lg_thr|wait|barrier|not_sel)[a-z_]*_per_issue_active" \
  $OUT/logs/ncu_async.txt | cut -c1-110 | head -60
left=$((570 - (SECONDS - start)))
if [ $left -gt 60 ]; then
  timeout $left python3 bench/placement.py --shapes 8192x4096 \
    --variants "16x16 default,16x16 copy async,1x16 default" --out $OUT > $OUT/logs/placement.log 2>&1
  echo "placement rc=$? ($((SECONDS - start)) s)"; tail -n 40 $OUT/logs/placement.log
fi
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

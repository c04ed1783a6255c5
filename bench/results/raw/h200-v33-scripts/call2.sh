# v33 call 2, carry [".gpu"]. The tile_persistent sweep twice more (fresh buffers each
# run), then ncu of the per-CTA 16x16 default against tile_persistent (640 threads, 3 and
# 2 units) at 32768 x 7168 and 8192 x 4096.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v33-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs $OUT/r2 $OUT/r3
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
for r in r2 r3; do
  timeout 150 python3 bench/variants.py --sweep tile-persistent --back-to-back --out $OUT/$r \
    --shapes 8192x4096,32768x2048,16384x7168,32768x7168 > $OUT/logs/variants-$r.log 2>&1
  echo "variants $r rc=$? ($((SECONDS - start)) s)"
  grep -v Warn $OUT/logs/variants-$r.log | grep -E "copy|x[0-9]+ " | grep -v "768 thr" \
    | sed -E 's/bfloat16 16x16 tensor/bf16/; s/float16 16x16 tensor/f16/; s/ of copy//' | cut -c1-110
done
timeout 200 ncu --profile-from-start off --clock-control none --section SpeedOfLight \
  --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
  python3 bench/results/raw/h200-v33-scripts/ncu_tiles.py '{}' \
  '{"persistent": true, "threads": 640}' '{"persistent": true, "threads": 640, "groups_per_thread": 2}' \
  > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$? ($((SECONDS - start)) s)"
grep -E "^  [a-z_]+.*\(|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|dram__bytes|inst_executed" $OUT/logs/ncu.txt | cut -c1-110 | head -80
echo "total $((SECONDS - start)) s"
mv $OUT/r2/variants.json $OUT/variants-r2.json; mv $OUT/r3/variants.json $OUT/variants-r3.json
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs $OUT/r2 $OUT/r3

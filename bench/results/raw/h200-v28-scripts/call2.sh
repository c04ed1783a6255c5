# v28 call 2 (v25-scripts/next.sh as queued there; carry [".gpu"], no kernel cache:
# tree and the cache no longer fit the 64 MiB carry together; the variants compile on
# the device, about 1 s each). About 5 min.
#   1. placement.py at 3 shapes: x and outputs moved together (does the relative
#      offset of the input and the outputs set 16x16's time?), 16x16 with staged stores,
#      1x16 with 3 groups a lane (v25: +2 points at 8192 x 4096 in one run);
#   2. ncu with the benchmark's flush and no cache control of its own, application
#      replay: do the slow and fast placements differ there, and in which counter.
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 330 python3 bench/placement.py --shapes 8192x4096,32768x2048,16384x7168 --out $OUT \
  > $OUT/logs/placement.log 2>&1
echo "placement rc=$?"; grep -E "^ *8192x4096 .*(x \+[0-9]+, out|x at)" $OUT/logs/placement.log | cut -c1-80
sed -n '/min \/ median/,$p' $OUT/logs/placement.log
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum
M=$M,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum,smsp__cycles_active.avg
timeout 200 ncu --profile-from-start off --clock-control none --cache-control none \
  --replay-mode application --metrics $M \
  python3 bench/results/raw/h200-v25-scripts/ncu_16x16_flushed.py > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$?"; grep -E "^case:|gpu__time|dram__|lts__" $OUT/logs/ncu.txt | sed 's/  */ /g'

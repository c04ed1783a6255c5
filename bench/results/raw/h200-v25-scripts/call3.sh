# v25 call 3: ncu of 16x16 at slow and fast placements of x, mae and mse (ncu_16x16.py),
# with the DRAM channel and L2 slice spread (.max against .avg). Carry [".gpu"].
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_read.max,dram__bytes_read.avg,dram__bytes_write.sum
M=$M,lts__t_sectors_op_read.sum,lts__t_sectors_op_read.max,lts__t_sectors_op_read.avg
M=$M,lts__t_sectors_op_write.max,lts__t_sectors_op_write.avg,smsp__inst_executed.sum
M=$M,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct
M=$M,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__issue_active.avg.pct_of_peak_sustained_active
timeout 300 ncu --profile-from-start off --clock-control none --metrics $M \
  python3 bench/results/raw/h200-v25-scripts/ncu_16x16.py > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$?"; grep -E "^case:|^  [a-z_]+.*\(|gpu__time|dram__|lts__|smsp__|sm__" $OUT/logs/ncu.txt | sed 's/  */ /g' | cut -c1-120

# v29 call 2, carry [".gpu"]: ncu of the row-amax tilings with and without row tables.
#   bash .gpu/install.sh && bash bench/results/raw/h200-v29-scripts/call2.sh
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 300 ncu --profile-from-start off --clock-control none --section SpeedOfLight --section Occupancy \
  --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats \
  --metrics dram__bytes_read.sum,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio \
  python3 bench/results/raw/h200-v29-scripts/ncu_row_tables.py > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$?"; grep -E "profiled:|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Theoretical Occ|Block Limit|inst_executed|bank_conflicts|stalled|Dynamic Shared|Stall|Warp Cycles Per Issued" $OUT/logs/ncu.txt | sed 's/  */ /g' | cut -c1-120
xz -9 $OUT/logs/ncu.txt

# v47 call 2, carry [".gpu"]: ncu of the one-read kernel (0.6.15 defaults, 32768 x 7168 bf16
# mae): both layouts, columnwise only, rowwise only, one launch each. The details page
# (speed of light, pipes, instruction and scheduler stats, warp states, occupancy) as
# text, and per-instruction stall samples (SourceCounters) with v35's stall_table.py.
# LAUNCHES=1 profiles the both-layouts launch only (less device time).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [LAUNCHES=1] bash bench/results/raw/h200-v47-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
S=bench/results/raw/h200-v47-scripts
nvidia-smi --query-gpu=name --format=csv,noheader
n=${LAUNCHES:-3}
timeout 200 ncu --profile-from-start off --clock-control none -k regex:cutlass_kernel_fos -c $n \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats \
  --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats \
  --section SourceCounters --import-source no -f -o $OUT/logs/dual \
  python3 $S/ncu_dual.py > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/ncu.txt
ncu -i $OUT/logs/dual.ncu-rep --page details > $OUT/details.txt 2>&1
echo "details rc=$? $(wc -l < $OUT/details.txt) lines"
grep -E "Duration|Executed Ipc A|Issue Slots Busy|Issued Warp|No Eligible|Active Warps Per|Eligible Warps|Registers Per|Achieved Occ|Executed Instructions  |Compute \(SM\) Thr|Memory Thr" $OUT/details.txt | head -60
for k in $(seq 1 $n); do
  timeout 40 ncu -i $OUT/logs/dual.ncu-rep --page source --csv --print-source sass \
    --launch-skip $((k - 1)) --launch-count 1 > $OUT/logs/source$k.csv 2> $OUT/logs/source$k.err
  echo "export $k rc=$? $(wc -c < $OUT/logs/source$k.csv) bytes"
  python3 bench/results/raw/h200-v35-scripts/stall_table.py $OUT/logs/source$k.csv --top 25 \
    > $OUT/stalls$k.txt 2>&1
  echo "table $k rc=$?"
done
echo "total $((SECONDS - start)) s"
rm -f $OUT/logs/dual.ncu-rep
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

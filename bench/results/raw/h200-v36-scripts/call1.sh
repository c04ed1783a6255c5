# v36 call 1, carry [".gpu"]. Candidate 4 rounded on the FMA pipe (QuantizeConfig.linear4):
# bits and A/B time against the default in seven modes (bench/ab.py), then ncu of both
# in the three bf16 mae quantize kernels at 32768 x 7168 (issue, pipes, stalls).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v36-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
timeout 400 python3 bench/ab.py --set linear4 --shapes 32768x7168,8192x4096,32768x2048 \
  --buffers 2 > $OUT/logs/ab.log 2>&1
echo "ab rc=$? ($((SECONDS - start)) s)"; grep -v "^$" $OUT/logs/ab.log | tail -n 60
left=$((570 - (SECONDS - start)))
L='{"linear4": true}'
timeout $left ncu --profile-from-start off --clock-control none --section SpeedOfLight \
  --section WarpStateStats --section SchedulerStats --section InstructionStats \
  --section ComputeWorkloadAnalysis \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
  python3 bench/profile_target.py --shape 32768x7168 bfloat16:1x16:tensor "bfloat16:1x16:tensor:$L" \
  bfloat16:1x16:row "bfloat16:1x16:row:$L" bfloat16:16x16:tensor "bfloat16:16x16:tensor:$L" \
  > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$? ($((SECONDS - start)) s)"
grep -E "^  [a-z_]+.*\(|Duration|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Executed Ipc A|ALU|FMA|stalled_(long|math|not_sel|wait|short|barrier)" \
  $OUT/logs/ncu.txt | cut -c1-110 | head -150
echo "total $((SECONDS - start)) s"
cp $OUT/logs/ab.log $OUT/ab.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v34 call 1, carry [".gpu"]. ncu of the three quantize kernels at 32768 x 7168 and 32768 x 2048
# (stall reasons per issued instruction, pipe use, issue), then bits on 0.6.8 where v33 did not
# look: the fake-quantize kernel tests (16x16 fake-quantize runs TileKernel, whose shared code
# 0.6.8 moved) and gpu_verify_fake.py.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v34-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 150 ncu --profile-from-start off --clock-control none --section SpeedOfLight \
  --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
  --section ComputeWorkloadAnalysis --section InstructionStats \
  --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
  python3 bench/results/raw/h200-v34-scripts/ncu_modes.py > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$? ($((SECONDS - start)) s)"
grep -E "^  [a-z_]+.*\(|Duration|Registers Per|Issue Slots Busy|No Eligible|Active Warps Per|Warp Cycles Per Issued|Executed Ipc A|stalled_(wait|long|short|math|not_sel|no_inst|mio|lg_thr|barrier|dispatch|selected|branch|drain|imc|membar|sleep|tex)" \
  $OUT/logs/ncu.txt | cut -c1-110 | head -160
timeout 230 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_fake_quantize_kernel.py \
  > $OUT/logs/test_fake.log 2>&1
echo "test_fake_quantize_kernel rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_fake.log
timeout $((565 - (SECONDS - start))) python3 tests/cutedsl/gpu_verify_fake.py \
  --out $OUT/gpu_verify_fake.json > $OUT/logs/gpu_verify_fake.log 2>&1
echo "gpu_verify_fake rc=$? ($((SECONDS - start)) s)"; tail -n 6 $OUT/logs/gpu_verify_fake.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

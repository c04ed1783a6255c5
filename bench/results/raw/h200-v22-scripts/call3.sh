# v22 call 3: the GPU suite's part B not reached in call 2, the op GPU tests (the eager plan
# changed), the host overhead and its pieces, then ncu of the dual and row-amax kernels.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/logs/state.txt 2>/dev/null; date -u >> $OUT/logs/state.txt
timeout 240 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE tests/cutedsl/test_grouped_kernel.py \
  tests/cutedsl/test_layout.py tests/cutedsl/test_pinned_ptx.py tests/op/test_gpu.py > $OUT/logs/pytest-B2.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest-B2.log | tail -n 20
PYTHONPATH=$PYTHONPATH:$PWD/bench timeout 90 python3 bench/overhead.py --out $OUT/h200-op-overhead.json > $OUT/logs/overhead.log 2>&1
echo "overhead rc=$?"; cat $OUT/logs/overhead.log | tail -n 25
PYTHONPATH=$PYTHONPATH:$PWD/bench timeout 90 python3 bench/host_pieces.py --out $OUT/host_pieces.json > $OUT/logs/host_pieces.log 2>&1
echo "host_pieces rc=$?"; cat $OUT/logs/host_pieces.log
timeout 150 ncu --profile-from-start off --clock-control none --section SpeedOfLight --section Occupancy \
  --section LaunchStats --section WarpStateStats --section SchedulerStats \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum \
  python3 bench/results/raw/h200-v22-scripts/ncu_driver.py > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$?"; grep -E "^  [a-z_]+.*\(|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|DRAM Throughput|Theoretical Occ|Block Limit|dram__bytes|inst_executed|bank_conflicts|lts__t_sectors" $OUT/logs/ncu.txt | cut -c1-150 | head -120
date -u >> $OUT/logs/state.txt

# v32 call 2, carry [".gpu"]. Looping warp rows with whole-line copies (each copy
# instruction 512 contiguous bytes) timed; their parity tests; ncu of the warp default,
# a looping variant and the given-amax warp rows at 32768 x 2048.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v32-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 150 python3 bench/row_amax_variants.py --rounds 2 --out $OUT \
  --only "v32 loop" "warp rows (0.6.6)" > $OUT/logs/variants-bfloat16.log 2>&1
echo "row_amax_variants bfloat16 rc=$? ($((SECONDS - start)) s)"
grep -v Warn $OUT/logs/variants-bfloat16.log | grep -E "exact=False|not built|x2048 |copy" | grep -v "per-row"
timeout 150 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_row_amax_kernel.py \
  -k "looping or rows_per_warp" > $OUT/logs/test_loop.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_loop.log
timeout 150 ncu --profile-from-start off --clock-control none --section SpeedOfLight \
  --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
  --metrics dram__bytes_read.sum,smsp__inst_executed.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
  python3 bench/results/raw/h200-v32-scripts/ncu_rows.py '{}' '{"cta_build": false, "rows_per_warp": 4}' \
  '{"cta_build": false, "group_amax": false, "given_amax": true}' > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$? ($((SECONDS - start)) s)"
grep -E "^  [a-z_]+.*\(|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Issued Warp|DRAM Throughput|Theoretical Occ|Block Limit|No Eligible|Active Warps Per|Eligible Warps|Warp Cycles Per Issued|dram__bytes|inst_executed|bank_conflicts|lts__t_" $OUT/logs/ncu.txt | cut -c1-120 | head -90
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

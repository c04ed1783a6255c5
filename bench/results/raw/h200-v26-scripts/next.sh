# For the next session, on main from 9478e49 on (carry [".gpu"], about 5 min):
# the persistent grouped kernel with each warp's unit table in shared memory (LDS.128,
# as the per-tensor kernel) against the global tables, beside the per-tensor quantize;
# then the persistent tests of both (global and shared).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 150 python3 bench/grouped_variants.py --tunings persistent "persistent, shared tables" \
  --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; grep -E "exact|persistent|fos_op" $OUT/logs/grouped_variants.log
timeout 200 python3 -m pytest -q -n 12 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent or graph_replay" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; tail -n 2 $OUT/logs/pytest.log
# ncu of the per-tensor and grouped kernels (about 1 min): stalls and table-read wavefronts.
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
M=$M,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
M=$M,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
timeout 150 ncu --profile-from-start off --clock-control none --cache-control none --metrics $M \
  python3 bench/results/raw/h200-v26-scripts/ncu_grouped.py > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$?"; grep -E "^case:|Kernel|kernel_cutlass|gpu__time|inst_exec|stalled|wavefronts|sectors|requests|warps_active" $OUT/logs/ncu.txt | sed 's/  */ /g' | head -60

# v29 call 3, carry [".gpu"]: the team kernel's quantize-loop unroll and the one-instruction
# |x| fold (xorsign), with and without row tables: parity tests, timings (2 rounds), ncu.
#   bash .gpu/install.sh && bash bench/results/raw/h200-v29-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE \
  tests/cutedsl/test_row_amax_kernel.py::test_step_tunings_give_the_same_bits \
  tests/cutedsl/test_row_amax_kernel.py::test_special_rows > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/pytest.log | tail -n 8
xz -9 $OUT/logs/pytest.log
timeout 300 python3 bench/row_amax_variants.py --rounds 2 --out $OUT > $OUT/logs/row_amax_variants.log 2>&1
echo "row_amax_variants rc=$?"; grep -v Warn $OUT/logs/row_amax_variants.log | grep -E "exact=False|x[0-9]+ " | tail -n 80
left=$((570 - (SECONDS - start)))
timeout $left ncu --profile-from-start off --clock-control none --section SpeedOfLight --section Occupancy \
  --section WarpStateStats --section InstructionStats \
  --metrics smsp__inst_executed.sum,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio \
  python3 bench/results/raw/h200-v29-scripts/ncu_row_tables.py loops > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$?"; grep -E "profiled:|Duration|inst_executed|stalled|Compute \(SM\) Th|No Eligible" $OUT/logs/ncu.txt | sed 's/  */ /g' | cut -c1-110
xz -9 $OUT/logs/ncu.txt
echo "total $((SECONDS - start)) s"

# v48 call 1, carry [".gpu"]: v47's ncu call (both-layouts launch only); ncu stall samples
# of the per-tensor and grouped kernels (ncu_grouped.py); the grouped kernel at 1 / 8 / 64 /
# 256 experts; then the whole benchmark on 0.6.15 (every op, 2 runs x 2 buffers, back to
# back, no peers), cut at BENCH_S seconds (the JSON is written after every case).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [BENCH_S=240] bash bench/results/raw/h200-v48-scripts/call1.sh
set -uo pipefail
start=$SECONDS
S=bench/results/raw/h200-v48-scripts
LAUNCHES=1 bash bench/results/raw/h200-v47-scripts/call2.sh
mv $OUT/logs.tgz $OUT/ncu-dual-logs.tgz; mv $OUT/details.txt $OUT/details-dual.txt
mv $OUT/stalls1.txt $OUT/stalls-dual.txt
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 120 ncu --profile-from-start off --clock-control none -k regex:cutlass_kernel_fos -c 3 \
  --section SpeedOfLight --section WarpStateStats --section InstructionStats \
  --section SourceCounters --import-source no -f -o $OUT/logs/grouped \
  python3 $S/ncu_grouped.py > $OUT/logs/ncu-grouped.txt 2>&1
echo "ncu grouped rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/ncu-grouped.txt
ncu -i $OUT/logs/grouped.ncu-rep --page details > $OUT/details-grouped.txt 2>&1
grep -E "Duration|Issue Slots Busy|No Eligible|Executed Instructions  |Stall Long" $OUT/details-grouped.txt | head -20
for k in 1 2 3; do
  timeout 40 ncu -i $OUT/logs/grouped.ncu-rep --page source --csv --print-source sass \
    --launch-skip $((k - 1)) --launch-count 1 > $OUT/logs/gsource$k.csv 2> /dev/null
  python3 bench/results/raw/h200-v35-scripts/stall_table.py $OUT/logs/gsource$k.csv --top 25 \
    > $OUT/stalls-grouped$k.txt 2>&1
  echo "grouped table $k rc=$?"
done
rm -f $OUT/logs/grouped.ncu-rep $OUT/logs/gsource*.csv
timeout 100 python3 bench/grouped_variants.py --tunings persistent --experts 1 8 64 256 \
  --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; tail -n 12 $OUT/logs/grouped_variants.log
timeout ${BENCH_S:-240} python3 bench/bench.py --repeat 2 --buffers 2 --back-to-back \
  --no-compiled --no-fouroversix --no-plot --out $OUT/bench.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 70 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

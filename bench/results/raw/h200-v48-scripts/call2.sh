# v48 call 2, carry [".gpu"]: the grouped persistent kernel's setup launch beside the kernel
# (setup_threads / setup_per_sm) and a unit map of owners alone (owners_only): bits (grouped_variants' check and the persistent parity
# test with both setups), then times at 1 / 8 / 64 / 256 experts, both widths.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v48-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 170 python3 bench/grouped_variants.py --tunings persistent "setup beside" \
  "owners only" "beside, owners" --experts 1 8 64 256 --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log
timeout ${PYTEST_S:-150} python3 -m pytest -q -x -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "(persistent_bitwise_parity and mae) or graph_replay" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$? ($((SECONDS - start)) s)"; tail -n 5 $OUT/logs/pytest.log
# ncu at 7168 columns: per tensor, grouped E=1 and E=64 (where the per-element overhead is),
# if the call has the time
[ $SECONDS -lt ${NCU_BEFORE:-230} ] && COLS=7168 timeout 100 ncu --profile-from-start off --clock-control none -k regex:cutlass_kernel_fos \
  -c 3 --section SpeedOfLight --section WarpStateStats --section InstructionStats \
  --section SourceCounters --import-source no -f -o $OUT/logs/g7168 \
  python3 bench/results/raw/h200-v48-scripts/ncu_grouped.py > $OUT/logs/ncu7168.txt 2>&1
echo "ncu 7168 rc=$? ($((SECONDS - start)) s)"
ncu -i $OUT/logs/g7168.ncu-rep --page details > $OUT/logs/details-g7168.txt 2>&1
grep -E "Duration|Executed Instructions  |Issue Slots Busy" $OUT/logs/details-g7168.txt
for k in 1 2 3; do
  timeout 40 ncu -i $OUT/logs/g7168.ncu-rep --page source --csv --print-source sass \
    --launch-skip $((k - 1)) --launch-count 1 > $OUT/logs/g7168-source$k.csv 2> /dev/null
  python3 bench/results/raw/h200-v35-scripts/stall_table.py $OUT/logs/g7168-source$k.csv \
    --top 25 > $OUT/logs/stalls-g7168-$k.txt 2>&1
done
gzip $OUT/logs/g7168-source*.csv; rm -f $OUT/logs/g7168.ncu-rep
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

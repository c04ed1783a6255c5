# v49 call 1, carry [".gpu"]: the grouped persistent kernel with each unit's owner found in
# the kernel (search: offsets and constants in smem, the setup building only the tables) and
# with every table built per CTA (local tables, no setup launch, at most 16 experts):
# bits, times at 1 / 8 / 16 / 64 / 256 experts beside the shipped kernel, ncu at 7168 columns.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v49-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 python3 bench/grouped_variants.py --tunings persistent search "local tables" \
  --experts 1 8 16 64 256 --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log
timeout ${PYTEST_S:-170} python3 -m pytest -q -x -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise_parity and (search or local)" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$? ($((SECONDS - start)) s)"; tail -n 5 $OUT/logs/pytest.log
[ $SECONDS -lt ${NCU_BEFORE:-330} ] && timeout 100 ncu --profile-from-start off --clock-control none \
  -k regex:kernel_fos -c 4 --section SpeedOfLight --section WarpStateStats --section InstructionStats \
  --section SourceCounters --import-source no -f -o $OUT/logs/s7168 \
  python3 bench/results/raw/h200-v49-scripts/ncu_grouped.py > $OUT/logs/ncu7168.txt 2>&1
echo "ncu 7168 rc=$? ($((SECONDS - start)) s)"
ncu -i $OUT/logs/s7168.ncu-rep --page details > $OUT/logs/details-s7168.txt 2>&1
grep -E "Duration|Executed Instructions  |Issue Slots Busy" $OUT/logs/details-s7168.txt
for k in 1 2 3 4; do
  timeout 40 ncu -i $OUT/logs/s7168.ncu-rep --page source --csv --print-source sass \
    --launch-skip $((k - 1)) --launch-count 1 > $OUT/logs/s7168-source$k.csv 2> /dev/null
  python3 bench/results/raw/h200-v35-scripts/stall_table.py $OUT/logs/s7168-source$k.csv \
    --top 25 > $OUT/logs/stalls-s7168-$k.txt 2>&1
done
gzip $OUT/logs/s7168-source*.csv; rm -f $OUT/logs/s7168.ncu-rep
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

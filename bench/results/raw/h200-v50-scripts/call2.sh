# v50 call 2, carry [".gpu"]: the grouped persistent kernel with two groups' loads in
# flight (prefetch=2), and either in 640-thread CTAs, beside the default (one ahead, 768
# threads), and with the offsets in shared memory: bits, times at 1 / 8 / 64 / 256 experts, the parity test of the three, ncu
# at 7168 columns (per tensor, grouped 1 and 2 ahead at 8 experts); before the parity test,
# the default at skewed, reversed and even splits (split_study.py).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v50-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/grouped_variants.py --tunings persistent "persistent, 2 ahead" \
  "persistent, 640 threads" "2 ahead, 640 threads" "shared offsets" \
  --experts 1 8 64 256 --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log
timeout 60 python3 bench/results/raw/h200-v50-scripts/split_study.py > $OUT/logs/split_study.log 2>&1
echo "split_study rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/split_study.log
timeout 120 python3 -m pytest -q -x -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise_parity" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest.log
[ $SECONDS -lt ${NCU_BEFORE:-330} ] && timeout 100 ncu --profile-from-start off --clock-control none \
  -k regex:kernel_fos -c 3 --section SpeedOfLight --section WarpStateStats --section InstructionStats \
  --section SourceCounters --import-source no -f -o $OUT/logs/s7168 \
  python3 bench/results/raw/h200-v50-scripts/ncu_grouped.py > $OUT/logs/ncu7168.txt 2>&1 && {
  ncu -i $OUT/logs/s7168.ncu-rep --page details > $OUT/logs/details-s7168.txt 2>&1
  grep -E "Duration|Executed Instructions  " $OUT/logs/details-s7168.txt
  for k in 1 2 3; do
    timeout 30 ncu -i $OUT/logs/s7168.ncu-rep --page source --csv --print-source sass \
      --launch-skip $((k - 1)) --launch-count 1 > $OUT/logs/s7168-source$k.csv 2> /dev/null
    python3 bench/results/raw/h200-v35-scripts/stall_table.py $OUT/logs/s7168-source$k.csv \
      --top 25 > $OUT/logs/stalls-s7168-$k.txt 2>&1
  done
  gzip $OUT/logs/s7168-source*.csv; rm -f $OUT/logs/s7168.ncu-rep; }
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v50, one call, carry [".gpu"]: v49's call 1 (the search and local-tables tunings beside the
# shipped grouped persistent kernel: bits, times at 1 / 8 / 16 / 64 / 256 experts, their parity
# test), then v49's search-default.patch applied to a copy of the tree and its kernel and op
# grouped GPU tests run there, then ncu at 7168 columns if the call has the time.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v50-scripts/call.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 python3 bench/grouped_variants.py --tunings persistent search "local tables" \
  --experts 1 8 16 64 256 --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/grouped_variants.log
timeout 120 python3 -m pytest -q -x -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise_parity and (search or local)" > $OUT/logs/pytest.log 2>&1
echo "pytest tunings rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest.log
here=$PWD; patched=/tmp/fos-patched
rm -rf $patched && mkdir -p $patched && tar -C $here --exclude=./.gpu -cf - . | tar -C $patched -xf -
( cd $patched && patch -p1 -s < bench/results/raw/h200-v49-scripts/search-default.patch \
  && export PYTHONPATH=$patched/packages/fos-reference/src:$patched/packages/fos-cutedsl/src:$patched/packages/fos-op/src:$patched/bench:$patched/tests/cutedsl \
  && timeout 130 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
    -k "persistent or graph or local" > $OUT/logs/pytest_patched_kernel.log 2>&1
  echo "patched kernel tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_patched_kernel.log
  timeout 100 python3 -m pytest -q -n 8 -p no:cacheprovider tests/op/test_grouped.py \
    > $OUT/logs/pytest_patched_op.log 2>&1
  echo "patched op tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_patched_op.log )
[ $SECONDS -lt ${NCU_BEFORE:-380} ] && timeout 100 ncu --profile-from-start off --clock-control none \
  -k regex:kernel_fos -c 4 --section SpeedOfLight --section WarpStateStats --section InstructionStats \
  --section SourceCounters --import-source no -f -o $OUT/logs/s7168 \
  python3 bench/results/raw/h200-v49-scripts/ncu_grouped.py > $OUT/logs/ncu7168.txt 2>&1 && {
  ncu -i $OUT/logs/s7168.ncu-rep --page details > $OUT/logs/details-s7168.txt 2>&1
  grep -E "Duration|Executed Instructions  " $OUT/logs/details-s7168.txt
  for k in 1 2 3 4; do
    timeout 30 ncu -i $OUT/logs/s7168.ncu-rep --page source --csv --print-source sass \
      --launch-skip $((k - 1)) --launch-count 1 > $OUT/logs/s7168-source$k.csv 2> /dev/null
    python3 bench/results/raw/h200-v35-scripts/stall_table.py $OUT/logs/s7168-source$k.csv \
      --top 25 > $OUT/logs/stalls-s7168-$k.txt 2>&1
  done
  gzip $OUT/logs/s7168-source*.csv; rm -f $OUT/logs/s7168.ncu-rep; }
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v51 call 4, carry [".gpu"]: the grouped kernel's table_prefetch tuning beside the default
# over the split study's splits (split_prefetch.py, bits first), then its bf16 parity test.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=170] bash bench/results/raw/h200-v51-scripts/call4.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-170}
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 100 python3 bench/results/raw/h200-v51-scripts/split_prefetch.py > $OUT/logs/split_prefetch.log 2>&1
echo "split_prefetch rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/split_prefetch.log
left=$((deadline - (SECONDS - start)))
[ $left -gt 20 ] && timeout $left python3 -m pytest -q -n 8 -p no:cacheprovider \
  tests/cutedsl/test_grouped_kernel.py -k "persistent_bitwise_parity and table-prefetch and bfloat16" \
  > $OUT/logs/pytest_parity.log 2>&1
echo "pytest parity rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_parity.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

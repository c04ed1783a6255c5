# v53 call 3, carry [".gpu"]: overlap_units against the default (overlap_split.py, bits
# first), the persistent parity test of both (bf16, then f16), then the op's grouped tests;
# each step only if it can end before DEADLINE seconds.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=330] bash bench/results/raw/h200-v53-scripts/call3.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-330}
left() { echo $((deadline - (SECONDS - start))); }
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/results/raw/h200-v53-scripts/overlap_split.py > $OUT/logs/overlap_split.log 2>&1
echo "overlap_split rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/overlap_split.log
[ $(left) -gt 40 ] && timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_grouped_kernel.py -k "persistent_bitwise_parity" > $OUT/logs/pytest_parity.log 2>&1
echo "pytest parity rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_parity.log
[ $(left) -gt 30 ] && timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider tests/op/test_grouped.py \
  > $OUT/logs/pytest_op_grouped.log 2>&1
echo "pytest op grouped rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_op_grouped.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v52 call 2, carry [".gpu"]: the mixed units' study (split_mixed.py: serial / l2 / ahead
# over skewed, aligned, reversed and even splits, bits first), then the two tunings'
# bf16 parity test.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=230] bash bench/results/raw/h200-v52-scripts/call2.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-230}
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 130 python3 bench/results/raw/h200-v52-scripts/split_mixed.py > $OUT/logs/split_mixed.log 2>&1
echo "split_mixed rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/split_mixed.log
left=$((deadline - (SECONDS - start)))
[ $left -gt 20 ] && timeout $left python3 -m pytest -q -n 8 -p no:cacheprovider \
  tests/cutedsl/test_grouped_kernel.py -k "persistent_bitwise_parity and mixed and bfloat16" \
  > $OUT/logs/pytest_parity.log 2>&1
echo "pytest parity rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_parity.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

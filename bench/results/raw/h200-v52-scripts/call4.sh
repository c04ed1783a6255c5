# v52 call 4, carry [".gpu"], on the tree of mixed-first-spread.patch applied to 0.6.20 (ran at e97bfae): mixed units first with the list spread over the CTAs
# (split_mixed.py, bits first), the persistent parity test (bf16), the op's grouped tests
# and the grouped kernel's graph / many-experts / cannot-run tests, on the new default.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=300] bash bench/results/raw/h200-v52-scripts/call4.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-250}
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 110 python3 bench/results/raw/h200-v52-scripts/split_mixed.py > $OUT/logs/split_mixed.log 2>&1
echo "split_mixed rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/split_mixed.log
timeout 90 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent_bitwise_parity and bfloat16" > $OUT/logs/pytest_parity.log 2>&1
echo "pytest parity rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_parity.log
left=$((deadline - (SECONDS - start)))
[ $left -gt 20 ] && timeout $left python3 -m pytest -q -n 8 -p no:cacheprovider tests/op/test_grouped.py \
  > $OUT/logs/pytest_op_grouped.log 2>&1
echo "pytest op grouped rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_op_grouped.log
left=$((deadline - (SECONDS - start)))
[ $left -gt 20 ] && timeout $left python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "graph or many or cannot or per_cta" > $OUT/logs/pytest_grouped.log 2>&1
echo "pytest grouped rc=$? ($((SECONDS - start)) s)"; tail -n 5 $OUT/logs/pytest_grouped.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

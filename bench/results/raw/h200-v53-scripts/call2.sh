# v53 call 2, carry [".gpu"]: 0.6.20's grouped bits (the grouped kernel's whole test file,
# gpu_verify_elementwise.py's grouped stage) and the op layer's GPU tests; each step only if
# it can end before DEADLINE seconds.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v53-scripts/call2.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-570}
left() { echo $((deadline - (SECONDS - start))); }
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 300 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  > $OUT/logs/pytest_grouped.log 2>&1
echo "grouped kernel tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_grouped.log
[ $(left) -gt 60 ] && timeout $(($(left) - 40)) python3 tests/cutedsl/gpu_verify_elementwise.py \
  --stages grouped --out $OUT/gpu_verify_elementwise.json > $OUT/logs/verify_grouped.log 2>&1
echo "verify grouped rc=$? ($((SECONDS - start)) s)"; tail -n 6 $OUT/logs/verify_grouped.log
[ $(left) -gt 40 ] && timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider tests/op \
  > $OUT/logs/pytest_op.log 2>&1
echo "op tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_op.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v54 call 2, carry [".gpu"]: 0.6.22's grouped bits and the op layer (v53's call2.sh, which
# did not run, reordered): the grouped kernel's whole test file, tests/op whole, then
# gpu_verify_elementwise.py's grouped stage; each step only if it can end before DEADLINE s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v54-scripts/call2.sh
set -uo pipefail
source bench/results/raw/h200-v54-scripts/start.sh
timeout 240 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  > $OUT/logs/pytest_grouped.log 2>&1
echo "grouped kernel tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_grouped.log
[ $(left) -gt 60 ] && timeout $(($(left) - 30)) python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/op > $OUT/logs/pytest_op.log 2>&1
echo "op tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_op.log
[ $(left) -gt 40 ] && timeout $(left) python3 tests/cutedsl/gpu_verify_elementwise.py \
  --stages grouped --out $OUT/gpu_verify_elementwise.json > $OUT/logs/verify_grouped.log 2>&1
echo "verify grouped rc=$? ($((SECONDS - start)) s)"; tail -n 6 $OUT/logs/verify_grouped.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

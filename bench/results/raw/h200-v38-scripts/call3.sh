# v38 call 3, carry [".gpu"]. gpu_verify_elementwise.py's stages whose kernels run
# group.fast_group (row_amax, grouped, layouts), then tests/op on the GPU.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v38-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 300 python3 tests/cutedsl/gpu_verify_elementwise.py --stages row_amax grouped layouts \
  --out $OUT/h200-elementwise-verify.json > $OUT/logs/verify_elementwise.log 2>&1
echo "gpu_verify_elementwise rc=$? ($((SECONDS - start)) s)"; tail -n 6 $OUT/logs/verify_elementwise.log
timeout 250 python3 -m pytest -q -n 15 -p no:cacheprovider tests/op > $OUT/logs/tests_op.log 2>&1
echo "tests/op rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/tests_op.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

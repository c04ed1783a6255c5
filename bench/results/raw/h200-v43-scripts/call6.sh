# v43 call 6, carry [".gpu"]. The user-facing ops' GPU tests (tests/op: dispatch, eager plans,
# torch.compile, CUDA graphs, autograd, every op on the kernels) on 0.6.12, on the machine at
# hand; cut at 330 s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v43-scripts/call6.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 330 python3 -m pytest -q -n 15 -p no:cacheprovider tests/op > $OUT/logs/tests_op.log 2>&1
echo "tests/op rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR" $OUT/logs/tests_op.log | head
tail -n 3 $OUT/logs/tests_op.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

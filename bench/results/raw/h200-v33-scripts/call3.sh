# v33 call 3, carry [".gpu"]. tile_persistent as the 16-bit 16x16 quantize default,
# verified: test_quantize_kernel.py whole (its 16-bit 16x16 parity now runs the persistent
# kernel; the new many-items test runs both kernels), gpu_verify.py, and tests/op -k 16x16.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v33-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 260 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_quantize_kernel.py \
  > $OUT/logs/test_quantize.log 2>&1
echo "test_quantize rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_quantize.log
timeout 220 python3 tests/cutedsl/gpu_verify.py --out $OUT/gpu_verify.json \
  > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 6 $OUT/logs/gpu_verify.log
timeout $((560 - (SECONDS - start))) python3 -m pytest -q -n 15 -p no:cacheprovider tests/op \
  -k 16x16 > $OUT/logs/test_op.log 2>&1
echo "tests/op -k 16x16 rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_op.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

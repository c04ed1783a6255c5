# v55 call 1, carry [".gpu"] (any GPU): 0.6.23's bits where its mse margins act
# (gpu_verify.py: every stage, the sweep covers mse 1x16 and 16x16), then mse against mae
# in time (issue 27: <= 1.05) at the target shapes, 3 runs x 2 buffers, then
# gpu_verify_fake.py if the time before DEADLINE s allows.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v55-scripts/call1.sh
set -uo pipefail
source bench/results/raw/h200-v54-scripts/start.sh
timeout $(($(left) - 200)) python3 tests/cutedsl/gpu_verify.py --out $OUT > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 12 $OUT/logs/gpu_verify.log
timeout $(($(left) - 10)) python3 bench/bench.py --ops quantize --rows 32768 8192 --cols 7168 4096 \
  --dtypes bfloat16 --err-modes mae mse --no-hot --repeat 3 --buffers 2 --back-to-back \
  --no-compiled --no-fouroversix --no-plot --out $OUT/bench_mse.json > $OUT/logs/bench_mse.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 60 $OUT/logs/bench_mse.log
[ $(left) -gt 60 ] && timeout $(left) python3 tests/cutedsl/gpu_verify_fake.py \
  > $OUT/logs/gpu_verify_fake.log 2>&1
echo "gpu_verify_fake rc=$? ($((SECONDS - start)) s)"; tail -n 8 $OUT/logs/gpu_verify_fake.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

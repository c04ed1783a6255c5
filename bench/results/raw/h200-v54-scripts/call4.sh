# v54 call 4, carry [".gpu"] ($OUT, the device's, names both JSON files' folder): 0.6.23's bits where its mse margins act: gpu_verify.py (every
# stage: the sweep covers mse, 1x16 and 16x16) and gpu_verify_fake.py; each only if it can
# end before DEADLINE s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v54-scripts/call4.sh
set -uo pipefail
source bench/results/raw/h200-v54-scripts/start.sh
timeout $(($(left) - 150)) python3 tests/cutedsl/gpu_verify.py --out $OUT > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 12 $OUT/logs/gpu_verify.log
[ $(left) -gt 60 ] && timeout $(left) python3 tests/cutedsl/gpu_verify_fake.py \
  > $OUT/logs/gpu_verify_fake.log 2>&1
echo "gpu_verify_fake rc=$? ($((SECONDS - start)) s)"; tail -n 8 $OUT/logs/gpu_verify_fake.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v42 call 2, carry [".gpu"]. The verifiers 0.6.12's 16x16 change reaches beyond
# gpu_verify.py: gpu_verify_fake.py (the fake-quantize kernels share tile_math) and
# gpu_verify_elementwise's grouped stage, then the whole grouped kernel test file,
# cut at 520 s in all.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v42-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 250 python3 tests/cutedsl/gpu_verify_fake.py --out $OUT/gpu_verify_fake.json \
  > $OUT/logs/gpu_verify_fake.log 2>&1
echo "gpu_verify_fake rc=$? ($((SECONDS - start)) s)"; tail -n 6 $OUT/logs/gpu_verify_fake.log
timeout 150 python3 tests/cutedsl/gpu_verify_elementwise.py --stages grouped \
  --out $OUT/gpu_verify_grouped.json > $OUT/logs/verify_grouped.log 2>&1
echo "verify grouped rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/verify_grouped.log
timeout $((520 - SECONDS + start)) python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_grouped_kernel.py > $OUT/logs/test_grouped.log 2>&1
echo "test_grouped_kernel rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_grouped.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

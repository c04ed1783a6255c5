# v45 call 2, carry [".gpu"]: the one-read kernel fitted for 4 CTAs an SM (16-bit inputs) and
# the swizzled rowwise scale byte from step 0's: its tests (two more tile-row tunings),
# dual_variants against 3 CTAs an SM and the index per step, the layouts verify stage, then
# issue 26's benchmark rows (3 runs x 2 buffers) with what time is left.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v45-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 280 python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_dual_kernel.py tests/op/test_layouts.py > $OUT/logs/test_dual.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_dual.log | head -20
tail -n 2 $OUT/logs/test_dual.log
timeout 100 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep " us " $OUT/logs/dual_variants.log
timeout 80 python3 tests/cutedsl/gpu_verify_elementwise.py --stages layouts \
  --out $OUT/layouts-verify.json > $OUT/logs/verify_layouts.log 2>&1
echo "verify layouts rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/verify_layouts.log
timeout $((575 - SECONDS + start)) python3 bench/bench.py --ops quantize_rowwise_columnwise \
  --dtypes bfloat16 --repeat 3 --buffers 2 --no-hot --no-compiled --no-plot \
  --out $OUT/layouts.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 30 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v46 call 1, carry [".gpu"]: columnwise undecided groups with SPEC's errors inline (their
# words read again from the staged tile) in place of the exact path. dual_variants with the
# global-amax sweep (how the share of undecided groups moves the time, old and new), the
# kernel's tests (two more tunings), the layouts verify stage, then issue 26's benchmark
# rows (3 runs x 2 buffers: fresh data, so fresh amaxes) with what time is left.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v46-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep -E "exact=| us " $OUT/logs/dual_variants.log
tail -n 3 $OUT/logs/dual_variants.log
timeout 290 python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_dual_kernel.py tests/op/test_layouts.py > $OUT/logs/test_dual.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_dual.log | head -20
tail -n 2 $OUT/logs/test_dual.log
timeout 60 python3 tests/cutedsl/gpu_verify_elementwise.py --stages layouts \
  --out $OUT/layouts-verify.json > $OUT/logs/verify_layouts.log 2>&1
echo "verify layouts rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/verify_layouts.log
timeout $((580 - SECONDS + start)) python3 bench/bench.py --ops quantize_rowwise_columnwise \
  --dtypes bfloat16 --repeat 3 --buffers 2 --no-hot --no-compiled --no-plot \
  --out $OUT/layouts.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 30 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

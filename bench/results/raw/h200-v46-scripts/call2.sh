# v46 call 2, carry [".gpu"]: the one-read kernel's rowwise undecided groups read again
# from the staged tile (not from x). dual_variants (against call 1), the kernel's tests and
# the layouts verify stage, then amax_sweep.py (how the global amax moves the per-tensor
# kernels) with what time is left.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v46-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 120 python3 bench/dual_variants.py --out $OUT > $OUT/logs/dual_variants.log 2>&1
echo "dual_variants rc=$? ($((SECONDS - start)) s)"; grep -E "exact=False| us " $OUT/logs/dual_variants.log | grep -v "exact path"
timeout 290 python3 -m pytest -q -n 15 -p no:cacheprovider \
  tests/cutedsl/test_dual_kernel.py tests/op/test_layouts.py > $OUT/logs/test_dual.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; grep -E "FAILED|ERROR|Error" $OUT/logs/test_dual.log | head -20
tail -n 2 $OUT/logs/test_dual.log
timeout 60 python3 tests/cutedsl/gpu_verify_elementwise.py --stages layouts \
  --out $OUT/layouts-verify.json > $OUT/logs/verify_layouts.log 2>&1
echo "verify layouts rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/verify_layouts.log
timeout $((585 - SECONDS + start)) python3 bench/amax_sweep.py --out $OUT > $OUT/logs/amax_sweep.log 2>&1
echo "amax_sweep rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/amax_sweep.log | tail -n 80
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v32 call 5, carry [".gpu"]. The shipped kernels (0.6.7) beyond the row-amax file, which
# v31 did not run: gpu_verify_elementwise's grouped and layouts stages, and the kernel
# test files of the grouped, one-read layouts, amax and dequantize kernels, can_run, the
# compile and disk caches and the pinned PTX.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v32-scripts/call5.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 170 python3 tests/cutedsl/gpu_verify_elementwise.py --stages grouped layouts \
  --out $OUT/gpu_verify_grouped_layouts.json > $OUT/logs/verify.log 2>&1
echo "verify grouped layouts rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/verify.log
t=tests/cutedsl
timeout 320 python3 -m pytest -q -n 15 -p no:cacheprovider $t/test_grouped_kernel.py \
  $t/test_dual_kernel.py $t/test_amax_kernel.py $t/test_dequantize_kernel.py $t/test_can_run.py \
  $t/test_compile_cache.py $t/test_disk_cache.py $t/test_pinned_ptx.py > $OUT/logs/tests.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 4 $OUT/logs/tests.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

# v54 call 3, carry [".gpu"]: 0.6.22's other kernel test files on the GPU: the one-read
# layouts, row amax, amax, dequantize, caches and pinned PTX first, then the quantize and
# fake-quantize files; each step only if it can end before DEADLINE s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v54-scripts/call3.sh
set -uo pipefail
source bench/results/raw/h200-v54-scripts/start.sh
t=tests/cutedsl
timeout $(($(left) / 2)) python3 -m pytest -q -n 15 -p no:cacheprovider $t/test_dual_kernel.py \
  $t/test_row_amax_kernel.py $t/test_amax_kernel.py $t/test_dequantize_kernel.py \
  $t/test_can_run.py $t/test_compile_cache.py $t/test_disk_cache.py $t/test_pinned_ptx.py \
  > $OUT/logs/pytest_kernels1.log 2>&1
echo "kernel tests 1 rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_kernels1.log
[ $(left) -gt 40 ] && timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider \
  $t/test_quantize_kernel.py $t/test_fake_quantize_kernel.py > $OUT/logs/pytest_kernels2.log 2>&1
echo "kernel tests 2 rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_kernels2.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

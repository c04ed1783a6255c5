# v55 call 3, carry [".gpu"] (any GPU): the kernel test files v55's calls cut short, second
# half: the quantize and fake-quantize kernel files (v55: 472 of 868), then the one-read,
# can-run, cache and pinned-PTX files; each step only if it can end before DEADLINE s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v55-scripts/call3.sh
set -uo pipefail
source bench/results/raw/h200-v54-scripts/start.sh
t=tests/cutedsl
timeout $(($(left) - 150)) python3 -m pytest -q -n 15 -p no:cacheprovider $t/test_quantize_kernel.py \
  $t/test_fake_quantize_kernel.py > $OUT/logs/pytest_quantize.log 2>&1
echo "quantize, fake-quantize tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_quantize.log
[ $(left) -gt 40 ] && timeout $(left) python3 -m pytest -q -n 15 -p no:cacheprovider \
  $t/test_dual_kernel.py $t/test_can_run.py $t/test_compile_cache.py $t/test_disk_cache.py \
  $t/test_pinned_ptx.py > $OUT/logs/pytest_dual.log 2>&1
echo "one-read, can-run, cache tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_dual.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

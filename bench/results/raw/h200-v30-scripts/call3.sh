# v30 call 3, carry [".gpu-cache"] on call 2's warm machine (its .gpu stays): the kernel
# cache for this tree (bench/gpu_cache.sh), then the kernel test files call 2 and v28
# left out: one-read layouts, grouped, amax, dequantize, caches, can_run, pinned PTX.
#   bash bench/results/raw/h200-v30-scripts/call3.sh
set -uo pipefail
start=$SECONDS
if [ ! -f .gpu/install.sh ]; then echo "cold machine: call 2's .gpu is gone"; exit 3; fi
cp .gpu-cache/fos-cache.tar.xz .gpu/
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
tail -n 1 $OUT/install.log
k=tests/cutedsl
FOS_TEST_TIMES=$OUT/logs/times.txt timeout 560 python3 -m pytest -v -n 15 -p no:cacheprovider \
  -rfE $k/test_dual_kernel.py $k/test_grouped_kernel.py $k/test_amax_kernel.py \
  $k/test_dequantize_kernel.py $k/test_can_run.py $k/test_compile_cache.py \
  $k/test_disk_cache.py $k/test_pinned_ptx.py > $OUT/logs/kernels.log 2>&1
echo "kernels rc=$? ($((SECONDS - start)) s)"
grep -E "FAILED|ERROR| failed| passed" $OUT/logs/kernels.log | tail -n 8
echo "PASSED lines: $(grep -c PASSED $OUT/logs/kernels.log)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
echo "total $((SECONDS - start)) s"

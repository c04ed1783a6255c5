# v30 call 4, carry [".gpu-cache"] on call 3's warm machine: the quantize and fake-quantize
# kernel test files, the last part of the GPU suite on this tree.
#   bash bench/results/raw/h200-v30-scripts/call4.sh
set -uo pipefail
start=$SECONDS
if [ ! -f .gpu/install.sh ]; then echo "cold machine: call 3's .gpu is gone"; exit 3; fi
cp .gpu-cache/fos-cache.tar.xz .gpu/
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
tail -n 1 $OUT/install.log
k=tests/cutedsl
FOS_TEST_TIMES=$OUT/logs/times.txt timeout 540 python3 -m pytest -v -n 15 -p no:cacheprovider \
  -rfE $k/test_quantize_kernel.py $k/test_fake_quantize_kernel.py > $OUT/logs/kernels.log 2>&1
echo "kernels rc=$? ($((SECONDS - start)) s)"
grep -E "FAILED|ERROR| failed| passed" $OUT/logs/kernels.log | tail -n 8
echo "PASSED lines: $(grep -c PASSED $OUT/logs/kernels.log)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs
echo "total $((SECONDS - start)) s"

# For the next session (v29): the whole GPU suite in three calls on one warm machine, with the
# kernel cache (bash bench/gpu_cache.sh, then mv .gpu/fos-cache.tar.xz .gpu-cache/: the
# tree, the bundle and the cache are over the 64 MiB carry together). Issue them back to
# back (the machine goes cold 30 s after a call):
#   1. carry [".gpu"]:        bash bench/results/raw/h200-v28-scripts/suite.sh op
#   2. carry [".gpu-cache"]:  bash bench/results/raw/h200-v28-scripts/suite.sh kernels-a
#   3. carry [".gpu-cache"]:  bash bench/results/raw/h200-v28-scripts/suite.sh kernels-b
# CPU-only files (test_check_audit, test_fast_algebra, test_layout) stay out: CI runs them.
# Build the cache for the tree that runs, and move it out of .gpu/, before the first call:
# v28's call right after `op` was refused while gpu_cache.sh was still writing into .gpu/.
set -uo pipefail
part=${1:?op, kernels-a or kernels-b}
if [ "$part" != op ]; then
  if [ ! -f .gpu/install.sh ]; then echo "cold machine: the first call's .gpu is gone"; exit 3; fi
  cp .gpu-cache/fos-cache.tar.xz .gpu/
fi
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
tail -n 2 $OUT/install.log
k=tests/cutedsl
case $part in
  op) files="tests/op" ;;
  kernels-a) files="$k/test_quantize_kernel.py $k/test_fake_quantize_kernel.py" ;;
  kernels-b) files="$k/test_amax_kernel.py $k/test_can_run.py $k/test_compile_cache.py
    $k/test_dequantize_kernel.py $k/test_disk_cache.py $k/test_dual_kernel.py
    $k/test_grouped_kernel.py $k/test_row_amax_kernel.py $k/test_pinned_ptx.py" ;;
esac
limit=$([ "$part" = op ] && echo 280 || echo 550)
# Each test phase's seconds as it ends (tests/conftest.py), kept when the limit cuts the run.
export FOS_TEST_TIMES=$OUT/logs/times-$part.txt
# shellcheck disable=SC2086
timeout $limit python3 -m pytest -v -n 15 -p no:cacheprovider --durations=25 -rfE $files \
  > $OUT/logs/$part.log 2>&1
echo "$part rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/$part.log | tail -n 20
echo "PASSED lines: $(grep -c PASSED $OUT/logs/$part.log)"
echo "slowest phases:"; sort -rn "$FOS_TEST_TIMES" | head -n 15
awk '{t[$NF ~ /::/ ? substr($NF, 1, index($NF, "::") - 1) : $NF] += $1} END {for (f in t) printf "%8.1f s %s\n", t[f], f}' \
  "$FOS_TEST_TIMES" | sort -rn
if [ "$part" = op ]; then
  timeout 250 python3 tests/cutedsl/gpu_verify_elementwise.py --stages grouped \
    --out $OUT/gpu_verify_grouped.json > $OUT/logs/verify_grouped.log 2>&1
  echo "verify grouped rc=$?"; tail -n 6 $OUT/logs/verify_grouped.log
fi

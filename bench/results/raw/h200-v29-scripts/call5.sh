# v29 call 5, carry [".gpu-cache"] on call 4's warm machine (its .gpu stays): the kernel
# cache for this tree (bench/gpu_cache.sh, fingerprint deb01161...), then the whole
# row-amax test file and the op tests that reach the row-amax kernel.
#   bash bench/results/raw/h200-v29-scripts/call5.sh
set -uo pipefail
start=$SECONDS
if [ ! -f .gpu/install.sh ]; then echo "cold machine: call 4's .gpu is gone"; exit 3; fi
cp .gpu-cache/fos-cache.tar.xz .gpu/
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
export FOS_TEST_TIMES=$OUT/logs/times.txt
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
tail -n 1 $OUT/install.log
timeout 420 python3 -m pytest -v -n 15 -p no:cacheprovider -rfE tests/cutedsl/test_row_amax_kernel.py \
  > $OUT/logs/row_amax.log 2>&1
echo "row_amax rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/row_amax.log | tail -n 8
timeout $((560 - (SECONDS - start))) python3 -m pytest -v -n 15 -p no:cacheprovider -rfE tests/op \
  -k "row_amax or with_amax or row" > $OUT/logs/op.log 2>&1
echo "op rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/op.log | tail -n 8
xz -9 $OUT/logs/row_amax.log $OUT/logs/op.log
echo "total $((SECONDS - start)) s"

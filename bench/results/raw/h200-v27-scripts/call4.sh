# v27 call 4, right after call 3 on the same warm machine (carry [".gpu-cache"]: the
# kernel cache that bench/gpu_cache.sh packed; the bundle installed by call 3 stays):
# tests/cutedsl, every quantize-family variant loaded from the disk cache.
set -uo pipefail
if [ ! -f .gpu/install.sh ]; then echo "cold machine: call 3's .gpu is gone"; exit 3; fi
cp .gpu-cache/fos-cache.tar.xz .gpu/
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
tail -n 2 $OUT/install.log
timeout 550 python3 -m pytest -v -n 15 -p no:cacheprovider --durations=25 -rfE tests/cutedsl \
  > $OUT/logs/suite.log 2>&1
echo "suite rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/suite.log | tail -n 30
echo "PASSED lines: $(grep -c PASSED $OUT/logs/suite.log) SKIPPED: $(grep -c SKIPPED $OUT/logs/suite.log)"

# v27 call 3: the whole GPU test suite in one piece (tests/cutedsl and tests/op), every
# quantize-family variant loaded from the disk cache that bench/gpu_cache.sh packed into
# .gpu/fos-cache.tar.xz (gpu_prep.sh unpacks it); kernels compiled by a test directly
# still compile on the device.
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
tail -n 2 $OUT/install.log
timeout 545 python3 -m pytest -v -n 15 -p no:cacheprovider --durations=25 -rfE \
  tests/cutedsl tests/op > $OUT/logs/suite.log 2>&1
echo "suite rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/suite.log | tail -n 30
echo "PASSED lines: $(grep -c PASSED $OUT/logs/suite.log) SKIPPED: $(grep -c SKIPPED $OUT/logs/suite.log)"

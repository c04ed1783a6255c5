# v25 call 6: 16x16 undecided units through grid_value (tile_math.undecided_unit):
# the undecided-tile timing, gpu_verify (every stage), and the 16x16 kernel tests of
# quantize, fake-quantize and grouped. Carry [".gpu"] (fos-cache for these sources).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs $OUT/verify
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
tail -n 1 $OUT/install.log
timeout 100 python3 bench/results/raw/h200-v25-scripts/undecided.py > $OUT/logs/undecided.log 2>&1
echo "undecided rc=$?"; cat $OUT/logs/undecided.log
timeout 200 python3 tests/cutedsl/gpu_verify.py --out $OUT/verify > $OUT/logs/verify.log 2>&1
echo "verify rc=$?"; grep -v "^  " $OUT/logs/verify.log | tail -n 8
timeout 270 python3 -m pytest -v -n 14 -p no:cacheprovider -rfE -k 16x16 tests/cutedsl/test_quantize_kernel.py \
  tests/cutedsl/test_fake_quantize_kernel.py tests/cutedsl/test_grouped_kernel.py > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| passed| failed" $OUT/logs/pytest.log | tail -n 12

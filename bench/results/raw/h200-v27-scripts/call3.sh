# v27 call 3 (carry [".gpu"], no kernel cache: the tree, the bundle and the cache are
# over the 64 MiB carry together): the op layer's tests (tests/op) and
# gpu_verify_elementwise.py --stages grouped, kernels compiled on the device.
# Call 4 follows on the same warm machine with the cache alone (call4.sh).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
tail -n 1 $OUT/install.log
timeout 300 python3 -m pytest -v -n 15 -p no:cacheprovider --durations=15 -rfE tests/op \
  > $OUT/logs/op.log 2>&1
echo "op tests rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/op.log | tail -n 20
timeout 240 python3 tests/cutedsl/gpu_verify_elementwise.py --stages grouped \
  --out $OUT/gpu_verify_grouped.json > $OUT/logs/verify_grouped.log 2>&1
echo "verify grouped rc=$?"; tail -n 4 $OUT/logs/verify_grouped.log

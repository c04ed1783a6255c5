# v27 call 2: persistent_rows (row-scaled 1x16 on the persistent kernel): its bits test
# and the launcher's row-scaled quantize tests, then the row-scaled sweep (rowwise
# against persistent_rows, knobs, mse, float16) at four shapes, back to back too.
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 220 python3 -m pytest -q -n 12 -p no:cacheprovider tests/cutedsl/test_quantize_kernel.py \
  -k "persistent_rows or (bitwise_parity and row)" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "passed|failed|Error|assert" $OUT/logs/pytest.log | head -20
timeout 330 python3 bench/variants.py --sweep row-scaled --back-to-back --out $OUT \
  --shapes 8192x4096,16384x7168,32768x2048,32768x7168 > $OUT/logs/variants.log 2>&1
echo "variants rc=$?"; grep -v "^$" $OUT/logs/variants.log | tail -n 45

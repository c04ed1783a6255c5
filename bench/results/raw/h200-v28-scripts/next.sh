# For the next session (v29): what v28 wrote after its device time ran out, in one warm
# call, carry [".gpu"] (about 9 min; the variants compile on the device):
#   1. bench/row_amax_variants.py: the row-amax tilings with and without `row_tables`
#      (step 4 from a per-row table of every scale byte), beside the row-scaled quantize;
#   2. their parity test (every tiling, dtype, error mode, input kind; poisoned outputs);
#   3. grouped_variants.py: the persistent grouped kernel at 4 (default) and 3 groups a
#      lane (v25 and v28 saw the per-tensor kernel 1-2.5% faster with 3 at small shapes);
#   4. variants.py's small-shape sweep back to back, 32768 x 7168 included (the 3-groups
#      lead was never timed there).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 170 python3 bench/row_amax_variants.py --out $OUT > $OUT/logs/row_amax_variants.log 2>&1
echo "row_amax_variants rc=$?"; grep -v Warn $OUT/logs/row_amax_variants.log | grep -E "exact=|x[0-9]+ " | tail -n 40
timeout 120 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE \
  tests/cutedsl/test_row_amax_kernel.py::test_row_tables_give_the_same_bits > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/pytest.log | tail -n 8
timeout 120 python3 bench/grouped_variants.py --tunings persistent "persistent, 3 groups" \
  --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; grep -E "exact=|E=" $OUT/logs/grouped_variants.log | tail -n 24
timeout 140 python3 bench/variants.py --sweep small-shapes --back-to-back \
  --shapes 8192x4096,32768x2048,32768x7168 --out $OUT > $OUT/logs/variants.log 2>&1
echo "variants rc=$?"; grep -E "1x16|groups" $OUT/logs/variants.log | tail -n 30

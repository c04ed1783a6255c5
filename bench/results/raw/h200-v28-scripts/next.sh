# For the next session (v29): what v28 wrote after its device time ran out, in two calls
# back to back on one warm machine, carry [".gpu"] (the variants compile on the device):
#   bash .gpu/install.sh && bash bench/results/raw/h200-v28-scripts/next.sh rows    (1, 2)
#   bash .gpu/install.sh && bash bench/results/raw/h200-v28-scripts/next.sh groups  (3, 4)
#   1. bench/row_amax_variants.py: the row-amax tilings with and without `row_tables`
#      (step 4 from a per-row table of every scale byte), and given the amax (a row-scaled
#      quantize by whole rows), beside the row-scaled quantize;
#   2. their parity tests (every tiling, dtype, error mode, input kind; given amaxes
#      0, NaN, Inf, subnormal and negative; poisoned outputs);
#   3. grouped_variants.py: the persistent grouped kernel at 4 (default) and 3 groups a
#      lane (v25 and v28 saw the per-tensor kernel 1-2.5% faster with 3 at small shapes);
#   4. variants.py's small-shape sweep back to back, 32768 x 7168 included (the 3-groups
#      lead was never timed there).
set -uo pipefail
part=${1:?rows or groups}
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
if [ "$part" = rows ]; then
timeout 240 python3 bench/row_amax_variants.py --out $OUT > $OUT/logs/row_amax_variants.log 2>&1
echo "row_amax_variants rc=$?"; grep -v Warn $OUT/logs/row_amax_variants.log | grep -E "exact=|x[0-9]+ " | tail -n 40
timeout 180 python3 -m pytest -v -n 12 -p no:cacheprovider -rfE \
  tests/cutedsl/test_row_amax_kernel.py::test_row_tables_give_the_same_bits \
  tests/cutedsl/test_row_amax_kernel.py::test_given_amax_bits_equal_the_row_scaled_quantize \
  > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/pytest.log | tail -n 8
else
timeout 120 python3 bench/grouped_variants.py --tunings persistent "persistent, 3 groups" \
  --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; grep -E "exact=|E=" $OUT/logs/grouped_variants.log | tail -n 24
timeout 140 python3 bench/variants.py --sweep small-shapes --back-to-back \
  --shapes 8192x4096,32768x2048,32768x7168 --out $OUT > $OUT/logs/variants.log 2>&1
echo "variants rc=$?"; grep -E "1x16|groups" $OUT/logs/variants.log | tail -n 30
fi

# v28 call 1 (carry .gpu): the wide register rows timed beside the row-amax tilings and
# the row-scaled quantize (bench/row_amax_variants.py --wide), then the bits of the
# kernels changed since the last GPU run: the new register-row tunings, the per-tensor
# persistent kernel (16-bit 1x16 per tensor, every kind) and the grouped persistent one.
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; date -u >> $OUT/state.txt
tail -n 2 $OUT/install.log
timeout 260 python3 bench/row_amax_variants.py --wide --out $OUT > $OUT/logs/variants.log 2>&1
echo "variants rc=$?"; grep -v "^\s*$" $OUT/logs/variants.log | grep -v Warn | tail -n 60
k=tests/cutedsl
timeout 250 python3 -m pytest -v -n 15 -p no:cacheprovider -rfE \
  "$k/test_row_amax_kernel.py::test_register_rows_tunings_give_the_same_bits" \
  "$k/test_grouped_kernel.py::test_persistent_bitwise_parity" \
  $k/test_quantize_kernel.py \
  -k "register_rows_tunings or persistent_bitwise or (bitwise_parity and (1x16-mae or 1x16-mse) and not float32)" \
  > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; grep -E "FAILED|ERROR| failed| passed" $OUT/logs/pytest.log | tail -n 20
echo "PASSED lines: $(grep -c PASSED $OUT/logs/pytest.log)"
date -u >> $OUT/state.txt

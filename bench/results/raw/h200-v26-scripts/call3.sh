# v26 call 3: x's loads past L1 and the unit map carrying each unit's constants;
# grouped_parts.py, grouped_variants.py (with and without x in L1), the bits of the
# grouped tests and of the 16-bit 1x16 quantize tests (the shared table build moved).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 120 python3 bench/results/raw/h200-v26-scripts/grouped_parts.py > $OUT/logs/parts.log 2>&1
echo "parts rc=$?"; tail -n 12 $OUT/logs/parts.log
timeout 150 python3 bench/grouped_variants.py --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; grep -E "exact|persistent|fos_op" $OUT/logs/grouped_variants.log
timeout 200 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent or many_experts or graph_replay or (quantize_bitwise_parity and 1x16)" \
  > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; tail -n 3 $OUT/logs/pytest.log
timeout 150 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_quantize_kernel.py \
  -k "bitwise_parity and 1x16 and not float32" > $OUT/logs/pytest_quantize.log 2>&1
echo "pytest quantize rc=$?"; tail -n 3 $OUT/logs/pytest_quantize.log

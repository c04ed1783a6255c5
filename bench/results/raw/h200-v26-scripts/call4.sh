# v26 call 4, on the final tree (x's L1 knob removed: the grouped PTX is call 3's
# "persistent, x in L1" variant's): grouped_variants.py for the record, then the whole
# grouped kernel test file and the op layer's grouped tests.
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 110 python3 bench/grouped_variants.py --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; grep -E "exact|rows |persistent|fos_op" $OUT/logs/grouped_variants.log
timeout 250 python3 -m pytest -q -n 12 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; tail -n 3 $OUT/logs/pytest.log
timeout 150 python3 -m pytest -q -n 12 -p no:cacheprovider tests/op/test_grouped.py tests/op/test_gpu.py -k "grouped or stacked" \
  > $OUT/logs/pytest_op.log 2>&1
echo "pytest op rc=$?"; tail -n 3 $OUT/logs/pytest_op.log

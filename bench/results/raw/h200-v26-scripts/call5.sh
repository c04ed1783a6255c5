# v26 call 5: the expert tables read as 16-byte-aligned entries (LDG.64 pairs, not
# LDG.32): the persistent grouped kernel timed beside the per-tensor quantize, its bits.
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 100 python3 bench/grouped_variants.py --tunings persistent --out $OUT \
  > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; grep -E "exact|persistent|fos_op" $OUT/logs/grouped_variants.log
timeout 120 python3 -m pytest -q -n 12 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent or graph_replay" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; tail -n 2 $OUT/logs/pytest.log

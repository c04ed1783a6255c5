# For the next session, on main from 9478e49 on (carry [".gpu"], about 4 min):
# the persistent grouped kernel with each warp's unit table in shared memory (LDS.128,
# as the per-tensor kernel) against the global tables, beside the per-tensor quantize;
# then the persistent tests of both (global and shared).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 150 python3 bench/grouped_variants.py --tunings persistent "persistent, shared tables" \
  --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; grep -E "exact|persistent|fos_op" $OUT/logs/grouped_variants.log
timeout 200 python3 -m pytest -q -n 12 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent or graph_replay" > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; tail -n 2 $OUT/logs/pytest.log

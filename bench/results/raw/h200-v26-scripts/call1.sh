# v26 call 1: the persistent grouped kernel (wip/grouped-persistent): timing against the
# row-scaled grouped kernel and the per-tensor quantize, then its bits (carry [".gpu"]).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 bench/grouped_variants.py --out $OUT > $OUT/logs/grouped_variants.log 2>&1
echo "grouped_variants rc=$?"; cat $OUT/logs/grouped_variants.log | tail -n 40
timeout 330 python3 -m pytest -q -n 8 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k "persistent or many_experts or graph_replay or quantize_bitwise_parity" \
  > $OUT/logs/pytest.log 2>&1
echo "pytest rc=$?"; tail -n 15 $OUT/logs/pytest.log

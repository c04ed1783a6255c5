# v33 call 5, carry [".gpu"]. The grouped 16x16 tests after grouped.py asks for the
# per-CTA tile kernel again (call 4: its config had become persistent).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v33-scripts/call5.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 240 python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_grouped_kernel.py \
  -k 16x16 > $OUT/logs/test_grouped.log 2>&1
echo "grouped -k 16x16 rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/test_grouped.log
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

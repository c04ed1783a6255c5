# v31 call 1, carry [".gpu"] (the bundle; no kernel cache: the device compiles).
# RowAmaxConfig.group_amax: each group's maximum kept from the row-amax fold, so the
# quantize step does not fold the group's words again. This call checks it bit for bit
# (the row-amax test file's group_amax cases: every tiling, dtype, both modes and bounds
# pairs, special rows, poisoned outputs) and times each tiling with and without it
# (row_amax_variants.py: bf16 and float16 two rounds, float32 one).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v31-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 200 python3 -m pytest -q tests/cutedsl/test_row_amax_kernel.py -k group_amax \
  > $OUT/logs/tests_group_amax.log 2>&1
echo "tests rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/tests_group_amax.log
for spec in "bfloat16 2" "float16 2" "float32 1"; do
  set -- $spec
  timeout 150 python3 bench/row_amax_variants.py --dtype $1 --rounds $2 --out $OUT \
    --only "0.6.6" "amax given" > $OUT/logs/row_amax_variants-$1.log 2>&1
  echo "row_amax_variants $1 rc=$? ($((SECONDS - start)) s)"
  grep -v Warn $OUT/logs/row_amax_variants-$1.log | grep -E "exact=|x[0-9]+ "
done
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

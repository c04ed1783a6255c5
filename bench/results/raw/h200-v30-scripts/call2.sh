# v30 call 2, carry [".gpu"]: the op layer's GPU tests, then the whole row-amax kernel
# test file, on the final tilings (each test phase's seconds in times-*.txt).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v30-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
run() {  # name, seconds, files...
  local name=$1 limit=$2; shift 2
  FOS_TEST_TIMES=$OUT/logs/times-$name.txt timeout $limit python3 -m pytest -v -n 15 \
    -p no:cacheprovider -rfE "$@" > $OUT/logs/$name.log 2>&1
  echo "$name rc=$? ($((SECONDS - start)) s)"
  grep -E "FAILED|ERROR| failed| passed" $OUT/logs/$name.log | tail -n 6
}
run op 290 tests/op
run row_amax $((570 - (SECONDS - start))) tests/cutedsl/test_row_amax_kernel.py
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)
echo "total $((SECONDS - start)) s"

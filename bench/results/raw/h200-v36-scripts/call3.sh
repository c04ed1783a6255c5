# v36 call 3, carry [".gpu"]. linear4 again after the fix of call 2's mismatch (the
# undecided branch's exact errors now take the checked inv4, so a group past 4.5 stays
# flagged): bench/ab.py --set linear4 (7 modes) and --set linear4-threads.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v36-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
for set in linear4 linear4-threads; do
  mkdir -p $OUT/$set
  timeout $((560 - (SECONDS - start))) python3 bench/ab.py --set $set --out $OUT/$set \
    --shapes 32768x7168,8192x4096,32768x2048 --buffers 2 > $OUT/$set/ab.log 2>&1
  echo "ab $set rc=$? ($((SECONDS - start)) s)"; grep -v "^$" $OUT/$set/ab.log | tail -n 50
done

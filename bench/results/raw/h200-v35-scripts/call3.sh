# v35 call 3, carry [".gpu"]. The kernel test files v33 and v34 did not run on 0.6.8's tree
# (their kernels' PTX is 0.6.7's): amax, dequantize, one-read layouts, row-amax, grouped,
# in that order, each under its own share of the call.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v35-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
for f in amax dequantize dual row_amax grouped; do
  left=$((575 - (SECONDS - start)))
  [ $left -lt 20 ] && { echo "$f: not run (no time left)"; continue; }
  timeout $left python3 -m pytest -q -n 14 -p no:cacheprovider tests/cutedsl/test_${f}_kernel.py \
    > $OUT/logs/test_$f.log 2>&1
  echo "test_${f}_kernel rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_$f.log
done
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v37 call 3, carry [".gpu"]. aa26924's other kernels through group.fast_group (each test
# file with the outlier_channels kind): row-amax, grouped, fake-quantize, rowwise+columnwise.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v37-scripts/call3.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt
for t in row_amax:120 grouped:130 fake_quantize:140 dual:150; do
  name=${t%%:*}; limit=${t##*:}
  timeout $limit python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_${name}_kernel.py \
    > $OUT/logs/test_$name.log 2>&1
  echo "test_$name rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_$name.log
  grep -c "PASSED\|passed" $OUT/logs/test_$name.log > /dev/null
  grep -o "^[.FEsx]*" $OUT/logs/test_$name.log | tr -d '\n' | awk '{print "  dots:", gsub(/\./,"."), "F:", gsub(/F/,"F"), "E:", gsub(/E/,"E")}'
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

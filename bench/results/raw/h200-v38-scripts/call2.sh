# v38 call 2, carry [".gpu"]. 0.6.9's kernel test files that v37 cut short or did not run
# (each its own time limit).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v38-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
for t in row_amax:140 grouped:150 fake_quantize:170; do
  name=${t%%:*}; limit=${t##*:}
  timeout $limit python3 -m pytest -q -n 15 -p no:cacheprovider tests/cutedsl/test_${name}_kernel.py \
    > $OUT/logs/test_$name.log 2>&1
  echo "test_$name rc=$? ($((SECONDS - start)) s)"; tail -n 2 $OUT/logs/test_$name.log
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v33 call 7, carry [".gpu"]. 0.6.8's quantize records at issue 27's shapes (bf16 mae,
# 2 buffers, back to back), into results/h200-quantize-v33.json.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v33-scripts/call7.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 330 python3 bench/bench.py --ops quantize --rows 8192 16384 32768 --cols 2048 4096 7168 \
  --dtypes bfloat16 --buffers 2 --back-to-back --no-compiled --no-fouroversix --no-hot \
  --no-plot --out $OUT/h200-quantize-v33.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"
grep -v Warn $OUT/logs/bench.log | grep -E "copy|x[0-9]+" | cut -c1-150 | head -60
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v37 call 1, carry [".gpu"]. The quantize kernels on other data kinds than normal.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v37-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
timeout 500 python3 bench/results/raw/h200-v37-scripts/data_kinds.py 8192x4096,32768x7168 > $OUT/kinds.log 2>&1
echo "rc=$? ($((SECONDS - start)) s)"; tail -n 70 $OUT/kinds.log

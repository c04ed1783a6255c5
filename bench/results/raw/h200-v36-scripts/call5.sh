# v36 call 5, carry [".gpu"]. Call 4's 16-column-wider shapes also broke the rows'
# 128-byte alignment; here the row stride is a multiple of 128 bytes and not a power of
# two (4160 and 2112 columns), with 4096 and 2048 again beside them, 16x16 and 1x16.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v36-scripts/call5.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
timeout 400 python3 bench/placement.py --shapes 8192x4160,8192x4096,32768x2112,32768x2048 \
  --variants "16x16 default,1x16 default" > $OUT/placement.log 2>&1
echo "placement rc=$? ($((SECONDS - start)) s)"
tail -n 10 $OUT/placement.log

# v36 call 2, carry [".gpu"]. linear4 with the registers to issue its loads early: the
# persistent 1x16 kernel at 640 threads (96 registers) and with 2 groups ahead, against
# the default and 640 threads alone (bench/ab.py --set linear4-threads), bf16 and f16.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v36-scripts/call2.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
timeout 560 python3 bench/ab.py --set linear4-threads \
  --shapes 32768x7168,8192x4096,32768x2048,16384x7168 --buffers 2 > $OUT/ab.log 2>&1
echo "ab rc=$? ($((SECONDS - start)) s)"; grep -v "^$" $OUT/ab.log | tail -n 60

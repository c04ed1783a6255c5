# v30 call 7, carry [".gpu"], the last ~250 s of device time: the looping one-read
# tunings (tiles_per_sm, async_tiles) checked bit for bit (2 CTAs in all: every CTA loops)
# and timed at 32768 x 7168 beside the default.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v30-scripts/call7.sh
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
timeout 150 python3 bench/dual_variants.py --only default loop --shapes 32768x7168 --out $OUT \
  2>&1 | grep -v Warn | tee $OUT/dual_variants.log

# The next session's first tuning call (issue 27, small shapes): the knobs that set the
# grid and the wave count, around defaults tuned at 32768 rows. Carry [".gpu"] (its
# fos-cache.tar.xz holds the default variants only; the swept ones compile, about 1 s
# each). About 3 min.
#   bash bench/results/raw/h200-v24-scripts/next_tune.sh
# Then: if a knob wins at one shape and loses at another, the dispatch can pick the
# variant by the row count (every variant is bit-exact; variants.py checks each first).
set -uo pipefail
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
mkdir -p $OUT/logs
timeout 540 python3 bench/variants.py --sweep small-shapes \
  --shapes 8192x4096,16384x7168,32768x2048,32768x7168 --out $OUT > $OUT/logs/variants.log 2>&1
echo "variants rc=$?"; cat $OUT/logs/variants.log

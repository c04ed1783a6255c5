# v33 call 1, carry [".gpu"]. 16-bit 16x16 per tensor on one CTA per SM (tile_persistent),
# checked bit for bit and timed against the per-CTA TileKernel at four shapes.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v33-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt
timeout 480 python3 bench/variants.py --sweep tile-persistent --back-to-back --out $OUT \
  --shapes 8192x4096,32768x2048,16384x7168,32768x7168 > $OUT/logs/variants.log 2>&1
echo "variants rc=$? ($((SECONDS - start)) s)"
grep -v Warn $OUT/logs/variants.log | grep -E "copy|x[0-9]+ " | cut -c1-140
echo "total $((SECONDS - start)) s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs  # (at most 8 files come back)

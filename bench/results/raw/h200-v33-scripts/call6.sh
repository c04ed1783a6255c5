# v33 call 6, carry [".gpu"]. tile_persistent with each item's units at uniform offsets
# from its base (a last row block moves up onto the last tile rows): the sweep with the
# next item's first unit carried (FOS_CARRY=1) and loaded after the item (FOS_CARRY=0).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v33-scripts/call6.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
mkdir -p $OUT/logs $OUT/c1 $OUT/c0
git log --oneline -1 > $OUT/state.txt; git status --short >> $OUT/state.txt; git diff >> $OUT/state.txt
for c in 1 0; do
  FOS_CARRY=$c timeout 200 python3 bench/variants.py --sweep tile-persistent --back-to-back \
    --out $OUT/c$c --shapes 8192x4096,32768x2048,16384x7168,32768x7168 > $OUT/logs/variants-c$c.log 2>&1
  echo "variants carry=$c rc=$? ($((SECONDS - start)) s)"
  grep -v Warn $OUT/logs/variants-c$c.log | grep -E "copy|x[0-9]+ " \
    | sed -E 's/bfloat16 16x16 tensor/bf16/; s/float16 16x16 tensor/f16/; s/ of copy//' | cut -c1-110
done
echo "total $((SECONDS - start)) s"
mv $OUT/c1/variants.json $OUT/variants-carry.json; mv $OUT/c0/variants.json $OUT/variants-nocarry.json
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs $OUT/c1 $OUT/c0

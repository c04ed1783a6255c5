# v36 call 4, carry [".gpu"]. Why x's placement moves the 16x16 kernel (issue 27): its
# lanes read 16 rows of a tile at the row stride, a power of two at 4096 and 2048 columns.
# placement.py for 16x16 and 1x16 at those shapes and at 16 columns more (stride not a
# power of two), with nvidia-smi logging the SM and memory clocks, power and throttle
# reasons every 20 ms beside it (each record has its wall-clock start and end).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v36-scripts/call4.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
reasons=clocks_throttle_reasons.active
nvidia-smi --help-query-gpu | grep -q "clocks_event_reasons.active" && reasons=clocks_event_reasons.active
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,$reasons \
  --format=csv -lms 20 > $OUT/smi.csv 2> $OUT/smi.err &
smi=$!
date +%s.%N > $OUT/clock_origin.txt; nvidia-smi --query-gpu=timestamp --format=csv,noheader >> $OUT/clock_origin.txt
timeout 500 python3 bench/placement.py --shapes 8192x4096,8192x4112,32768x2048,32768x2064 \
  --variants "16x16 default,1x16 default" > $OUT/placement.log 2>&1
echo "placement rc=$? ($((SECONDS - start)) s)"
kill $smi
tail -n 12 $OUT/placement.log; wc -l $OUT/smi.csv; head -c 300 $OUT/smi.err
python3 - $OUT/smi.csv <<'PY'
import collections, sys
rows = [l.split(", ") for l in open(sys.argv[1]).read().splitlines()[1:] if l.count(",") >= 5]
for i, name in ((1, "sm clock"), (2, "mem clock"), (5, "reasons")):
    print(name, collections.Counter(r[i] for r in rows).most_common(6))
PY
echo "total $((SECONDS - start)) s"

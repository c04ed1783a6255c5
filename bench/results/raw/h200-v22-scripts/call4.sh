# v22 call 4: the host overhead on an idle host first (call 3's ran beside the workers of a
# pytest cut by its timeout), then the one-process verification stages never run
# (gpu_verify_elementwise: grouped, layouts) and gpu_verify.py, as three processes at once.
set -uo pipefail
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
mkdir -p $OUT/logs
git log --oneline -1 > $OUT/logs/state.txt 2>/dev/null; date -u >> $OUT/logs/state.txt
PYTHONPATH=$PYTHONPATH:$PWD/bench timeout 90 python3 bench/overhead.py --out $OUT/h200-op-overhead.json > $OUT/logs/overhead.log 2>&1
echo "overhead rc=$?"; tail -n 16 $OUT/logs/overhead.log
PYTHONPATH=$PYTHONPATH:$PWD/bench timeout 60 python3 bench/host_pieces.py --out $OUT/host_pieces.json > $OUT/logs/host_pieces.log 2>&1
echo "host_pieces rc=$?"; head -n 8 $OUT/logs/host_pieces.log
(FOS_CACHE_DIR=/tmp/fos-cache-g timeout 380 python3 tests/cutedsl/gpu_verify_elementwise.py --stages grouped \
   --out $OUT/verify-grouped.json > $OUT/logs/verify-grouped.log 2>&1; echo "grouped rc=$?" >> $OUT/logs/rc.txt) &
(FOS_CACHE_DIR=/tmp/fos-cache-l timeout 380 python3 tests/cutedsl/gpu_verify_elementwise.py --stages layouts \
   --out $OUT/verify-layouts.json > $OUT/logs/verify-layouts.log 2>&1; echo "layouts rc=$?" >> $OUT/logs/rc.txt) &
(FOS_CACHE_DIR=/tmp/fos-cache-d timeout 380 python3 tests/cutedsl/gpu_verify.py --out $OUT/verify \
   > $OUT/logs/verify-D.log 2>&1; echo "gpu_verify rc=$?" >> $OUT/logs/rc.txt) &
wait
cat $OUT/logs/rc.txt
for f in verify-grouped verify-layouts verify-D; do echo "== $f"; tail -n 12 $OUT/logs/$f.log; done
date -u >> $OUT/logs/state.txt

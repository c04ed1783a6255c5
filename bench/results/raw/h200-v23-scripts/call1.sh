# v23 call 1: eager host-cost probes, then overhead.py and host_pieces.py on the merged tree.
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench
git log --oneline -1 > $OUT/state.txt 2>/dev/null; git status --short >> $OUT/state.txt 2>/dev/null
timeout 200 python3 bench/results/raw/h200-v23-scripts/probe.py > $OUT/probe.log 2>&1
timeout 120 python3 bench/overhead.py --out $OUT/h200-op-overhead.json > $OUT/overhead.log 2>&1
timeout 100 python3 bench/host_pieces.py --out $OUT/host_pieces.json > $OUT/host_pieces.log 2>&1
tail -50 $OUT/probe.log; tail -30 $OUT/overhead.log; tail -25 $OUT/host_pieces.log

# v55 call 4, carry [".gpu", "scratch/peers/fouroversix/src"] (any GPU; H200s seldom come):
# the whole benchmark with its in-run peers (the compiled reference and fouroversix; issue 23
# asks for them in the committed run), 3 runs x 2 buffers, back to back; on an H200 it is
# h200.json's successor, on an H100 h100.json's (0.6.19's, no peers).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v55-scripts/call4.sh
set -uo pipefail
source bench/results/raw/h200-v54-scripts/start.sh
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
ls scratch/peers/fouroversix/src/fouroversix/quantize > /dev/null && echo "peer checkout present"
timeout $(($(left) - 10)) python3 bench/bench.py --repeat 3 --buffers 2 --back-to-back \
  --no-plot --out $OUT/bench.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 150 $OUT/logs/bench.log | grep -v " hot "
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

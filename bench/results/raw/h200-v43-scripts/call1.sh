# v43 call 1, carry [".gpu", "scratch/peers/fouroversix/src"] (the peer's checkout: git clone
# the mirror of mit-han-lab/fouroversix into scratch/peers/fouroversix first). The peer
# (bench/peer_fouroversix.py: its quantize subpackage, no transformers) timed beside
# amax+quantize (its quantize) and fake_quantize 1x16 / 16x16 (its pseudo-quantize) at
# 32768 x 7168 and 32768 x 2048 bf16 mae, 3 runs x 2 buffers, L2 flushed; cut at 420 s.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v43-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" \
  > $OUT/logs/versions.log 2>&1
cat $OUT/logs/versions.log
ls scratch/peers/fouroversix/src/fouroversix/quantize > /dev/null && echo "peer checkout present"
timeout 420 python3 bench/bench.py --ops amax+quantize fake_quantize --repeat 3 --buffers 2 \
  --no-compiled --no-hot --no-plot --out $OUT/peer.json > $OUT/logs/bench_peer.log 2>&1
echo "bench peer rc=$? ($((SECONDS - start)) s)"; tail -n 30 $OUT/logs/bench_peer.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

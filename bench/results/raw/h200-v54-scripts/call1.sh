# v54 call 1, carry [".gpu", "scratch/peers/fouroversix/src"]: on an H200, the whole benchmark
# on 0.6.22 with its in-run peers (the compiled reference and fouroversix; issue 23 asks for
# them in the committed run), 3 runs x 2 buffers, back to back; on another GPU, call2.sh.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v54-scripts/call1.sh
set -uo pipefail
# FOS_ANY_GPU=1 (v55's call4.sh): the bench on whatever GPU this is.
[ -n "${FOS_ANY_GPU:-}" ] || case $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1) in
  *H200*) ;;
  *) exec bash bench/results/raw/h200-v54-scripts/call2.sh ;;
esac
source bench/results/raw/h200-v54-scripts/start.sh
python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
ls scratch/peers/fouroversix/src/fouroversix/quantize > /dev/null && echo "peer checkout present"
timeout $(($(left) - 10)) python3 bench/bench.py --repeat 3 --buffers 2 --back-to-back \
  --no-plot --out $OUT/bench.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 150 $OUT/logs/bench.log | grep -v " hot "
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

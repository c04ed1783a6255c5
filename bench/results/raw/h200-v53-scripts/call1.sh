# v53 call 1, carry [".gpu"]: the whole benchmark on 0.6.20, 3 runs x 2 buffers, back to
# back, no peers (issue 27 asks for three runs' spread; h200.json is 0.6.12's), then
# gpu_verify.py if the time before DEADLINE seconds allows (the bench JSON is written per case).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v53-scripts/call1.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-570}
left() { echo $((deadline - (SECONDS - start))); }
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout $(($(left) - 10)) python3 bench/bench.py --repeat 3 --buffers 2 --back-to-back \
  --no-compiled --no-fouroversix --no-plot --out $OUT/bench.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 150 $OUT/logs/bench.log | grep -v " hot "
[ $(left) -gt 130 ] && timeout $(left) python3 tests/cutedsl/gpu_verify.py --out $OUT \
  > $OUT/logs/gpu_verify.log 2>&1
echo "gpu_verify rc=$? ($((SECONDS - start)) s)"; tail -n 12 $OUT/logs/gpu_verify.log
echo "end ($((SECONDS - start)) s)"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

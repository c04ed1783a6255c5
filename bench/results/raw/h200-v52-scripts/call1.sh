# v52 call 1, carry [".gpu"]: v51's call 4 (the table prefetch beside the default over the
# split study's splits, bits first; its bf16 parity test), then the whole benchmark
# (v51's call 2) in the time left before DEADLINE seconds (the JSON is written after every case).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=560] bash bench/results/raw/h200-v52-scripts/call1.sh
set -uo pipefail
start=$SECONDS
deadline=${DEADLINE:-560}
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 100 python3 bench/results/raw/h200-v51-scripts/split_prefetch.py > $OUT/logs/split_prefetch.log 2>&1
echo "split_prefetch rc=$? ($((SECONDS - start)) s)"; cat $OUT/logs/split_prefetch.log
timeout 80 python3 -m pytest -q -n 8 -p no:cacheprovider \
  tests/cutedsl/test_grouped_kernel.py -k "persistent_bitwise_parity and table-prefetch and bfloat16" \
  > $OUT/logs/pytest_parity.log 2>&1
echo "pytest parity rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/pytest_parity.log
left=$((deadline - (SECONDS - start)))
timeout $left python3 bench/bench.py --repeat 2 --buffers 2 --back-to-back \
  --no-compiled --no-fouroversix --no-plot --out $OUT/bench.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 60 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v43 call 5, carry [".gpu", "scratch/peers/fouroversix/src"]. The whole benchmark on the
# machine at hand in one call (what call3.sh and call4.sh split, with the device time left
# for one): every op, 2 runs x 2 buffers, back to back too, fouroversix as the in-run peer,
# no compiled reference (its compiles take minutes); cut at 470 s (the JSON is written after every case).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v43-scripts/call5.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 470 python3 bench/bench.py --repeat 2 --buffers 2 --back-to-back --no-compiled \
  --no-plot --out $OUT/bench.json > $OUT/logs/bench.log 2>&1
echo "bench rc=$? ($((SECONDS - start)) s)"; tail -n 60 $OUT/logs/bench.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

# v35 call 1, carry [".gpu"]. ncu per-instruction stall sampling (SourceCounters) of the
# 16x16 (32768 x 2048), row-scaled and 1x16 (32768 x 7168) bf16 mae kernels; the source page
# as CSV with SASS, and the top instructions per stall reason.
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v35-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v22-scripts/gpu_prep.sh
export PYTHONPATH=$PYTHONPATH:$PWD/bench:$PWD/tests/cutedsl
S=bench/results/raw/h200-v35-scripts
mkdir -p $OUT/logs
timeout 300 ncu --profile-from-start off --clock-control none --section SourceCounters \
  --section WarpStateStats --import-source no -f -o $OUT/logs/src \
  python3 $S/ncu_source.py > $OUT/logs/ncu.txt 2>&1
echo "ncu rc=$? ($((SECONDS - start)) s)"; tail -n 3 $OUT/logs/ncu.txt
for k in 1 2 3; do  # (if --launch-skip does not select on import, every section is in each file)
  ncu -i $OUT/logs/src.ncu-rep --page source --csv --print-source sass --launch-skip $((k - 1)) \
    --launch-count 1 > $OUT/logs/source$k.csv 2> $OUT/logs/source$k.err
  echo "export $k rc=$? $(wc -c < $OUT/logs/source$k.csv) bytes"; head -c 300 $OUT/logs/source$k.err
  python3 $S/stall_table.py $OUT/logs/source$k.csv --top 25 > $OUT/stalls$k.txt 2>&1
  echo "table $k rc=$?"; head -c 2500 $OUT/stalls$k.txt
done
echo "total $((SECONDS - start)) s"
rm -f $OUT/logs/src.ncu-rep
tar -C $OUT -czf $OUT/logs.tgz logs && rm -r $OUT/logs

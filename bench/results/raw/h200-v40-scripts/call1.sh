# v40 call 1, carry [".gpu"]. What one undecided 16x16 tile costs by where it falls
# (undecided_position.py, about 2 min), then the whole fake-quantize kernel test file
# (v37 and v39 ran 254 and 262 of its 331 tests before 170 s limits; it packs the logs).
#   bash .gpu/install.sh > /dev/null && bash bench/results/raw/h200-v40-scripts/call1.sh
set -uo pipefail
start=$SECONDS
source bench/results/raw/h200-v38-scripts/prep.sh
timeout 240 python3 bench/results/raw/h200-v40-scripts/undecided_position.py \
  > $OUT/logs/undecided_position.log 2>&1
echo "undecided_position rc=$? ($((SECONDS - start)) s)"; tail -n 30 $OUT/logs/undecided_position.log
bash bench/results/raw/h200-v39-scripts/whole_file.sh fake_quantize 300
echo "total $((SECONDS - start)) s"

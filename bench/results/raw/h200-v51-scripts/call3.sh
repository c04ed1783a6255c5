# v51 call 3, carry [".gpu"]: the split study over three input buffers (split_buffers.py).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v51-scripts/call3.sh
set -uo pipefail
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 python3 bench/results/raw/h200-v51-scripts/split_buffers.py 2>&1 | tee $OUT/split_buffers.log
rm -r $OUT/logs

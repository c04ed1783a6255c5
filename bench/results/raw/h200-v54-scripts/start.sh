# Shared start of the v54 calls (sourced): the clock against DEADLINE seconds (default 570),
# `left` (seconds before it), v38's GPU setup and log folder, the GPU's name.
start=$SECONDS
deadline=${DEADLINE:-570}
left() { echo $((deadline - (SECONDS - start))); }
source bench/results/raw/h200-v38-scripts/prep.sh
nvidia-smi --query-gpu=name --format=csv,noheader

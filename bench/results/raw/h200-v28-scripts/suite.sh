# For the next session (v29): the whole GPU suite in three warm calls, as v27's next.sh
# runs it, with each test phase's seconds logged as it ends (tests/conftest.py,
# FOS_TEST_TIMES), so a run cut by its limit still says where its time went:
#   1. carry [".gpu"]:        bash bench/results/raw/h200-v28-scripts/suite.sh op
#   2. carry [".gpu-cache"]:  bash bench/results/raw/h200-v28-scripts/suite.sh kernels-a
#   3. carry [".gpu-cache"]:  bash bench/results/raw/h200-v28-scripts/suite.sh kernels-b
# Build the kernel cache for the tree that runs (bash bench/gpu_cache.sh) and move it to
# .gpu-cache/ before the first call: v28's call right after `op` was refused while
# gpu_cache.sh was still writing into .gpu/ (the carry limit).
set -uo pipefail
part=${1:?op, kernels-a or kernels-b}
mkdir -p "$OUT/logs"
export FOS_TEST_TIMES=$OUT/logs/times-$part.txt
bash bench/results/raw/h200-v27-scripts/next.sh "$part"
echo "slowest phases:"; sort -rn "$FOS_TEST_TIMES" | head -n 15
awk '{t[$NF ~ /::/ ? substr($NF, 1, index($NF, "::") - 1) : $NF] += $1} END {for (f in t) printf "%8.1f s %s\n", t[f], f}' \
  "$FOS_TEST_TIMES" | sort -rn

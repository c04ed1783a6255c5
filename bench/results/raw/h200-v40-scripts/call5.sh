# v40 call 5, carry [".gpu"]. The whole benchmark on fos-cutedsl 0.6.10 (v34's call 1: every op,
# 3 runs x 2 buffers, back to back beside the replay timing), into h200.json, then its summary.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v40-scripts/call5.sh
exec bash bench/results/raw/h200-v34-scripts/call1.sh

# v55 call 4, carry [".gpu", "scratch/peers/fouroversix/src"] (any GPU; H200s seldom come):
# v54's call1.sh on whatever GPU this is: the whole benchmark with its in-run peers (the
# compiled reference and fouroversix; issue 23 asks for them in the committed run), 3 runs x
# 2 buffers, back to back; on an H200 it is h200.json's successor, on an H100 h100.json's
# (0.6.19's, no peers).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=570] bash bench/results/raw/h200-v55-scripts/call4.sh
FOS_ANY_GPU=1 exec bash bench/results/raw/h200-v54-scripts/call1.sh

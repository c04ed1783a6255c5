# v52 call 4, carry [".gpu"]: call3.sh's steps on the tree of mixed-first-spread.patch applied
# to 0.6.20 (ran at e97bfae): mixed units first with the list spread over the CTAs (entry i
# in CTA (i - 1) % grid; the default on that tree) against in the loop, then its tests.
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> [DEADLINE=250] bash bench/results/raw/h200-v52-scripts/call4.sh
DEADLINE=${DEADLINE:-250} exec bash bench/results/raw/h200-v52-scripts/call3.sh

# v53 call 4, carry [".gpu"]: on an H200, call1.sh (the whole benchmark, three runs); on
# any other GPU, call3.sh (overlap_units against the default, bits first; the tests).
#   bash .gpu/install.sh > /dev/null && FOS_COMMIT=<sha> bash bench/results/raw/h200-v53-scripts/call4.sh
case $(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1) in
  *H200*) exec bash bench/results/raw/h200-v53-scripts/call1.sh ;;
  *) exec bash bench/results/raw/h200-v53-scripts/call3.sh ;;
esac

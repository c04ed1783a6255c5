# Shared setup of the GPU calls from v23 on (sourced): v20's, plus the compiled-kernel
# cache that bench/gpu_cache.sh packs into .gpu/ (if present), unpacked into FOS_CACHE_DIR.
source bench/results/raw/h200-v20-scripts/gpu_prep.sh
if [ -f .gpu/fos-cache.tar.xz ]; then
  mkdir -p "$FOS_CACHE_DIR" && tar -xJf .gpu/fos-cache.tar.xz -C "$FOS_CACHE_DIR"
  echo "disk cache: $(find "$FOS_CACHE_DIR" -name '*.o' | wc -l) variants unpacked" >> $OUT/install.log
fi

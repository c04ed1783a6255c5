#!/usr/bin/env bash
# Fill the compiled-kernel disk cache for the lent H200 on this (CPU-only) machine and
# pack it as .gpu/fos-cache.tar.xz, so a device call unpacks it instead of compiling.
#
#   bash bench/gpu_cache.sh            (after bash ../shared/gpu/make-bundle.sh)
#   FOS_CACHE_TAR=.gpu-cache/fos-cache.tar.xz bash bench/gpu_cache.sh   (elsewhere: a
#   device call can carry .gpu meanwhile, under the 64 MiB limit)
#
# The cache's key (fos_cutedsl.disk_cache) fingerprints this package's sources, the
# CuTe DSL and TVM-FFI versions and Python's major.minor, so it is built here with the
# bundle's CuTe DSL and TVM-FFI under Python 3.12, the GPU host's (in .venv312/, made
# on the first run). Every variant is compiled for sm_90a and the H200's 132 SMs
# (python -m fos_cutedsl.precompile). After any change to the package's sources the
# device sees another fingerprint and compiles as before (never a stale binary):
# rerun this. Device calls: carry .gpu, then
#   mkdir -p $FOS_CACHE_DIR && tar -xJf .gpu/fos-cache.tar.xz -C $FOS_CACHE_DIR
# (bench/results/raw/h200-v22-scripts/gpu_prep.sh does it).
set -euo pipefail
cd "$(dirname "$0")/.."
python312=$(command -v python3.12 || true)
if [ -z "$python312" ]; then
  echo "needs python3.12 (the GPU host's Python) to build a cache it can load" >&2
  exit 1
fi
if ! ls .gpu/cutedsl-*.tar.xz .gpu/*.whl > /dev/null 2>&1; then
  echo "needs the bundle in .gpu/: bash ../shared/gpu/make-bundle.sh" >&2
  exit 1
fi
if [ ! -x .venv312/bin/python ]; then
  "$python312" -m venv .venv312
  .venv312/bin/pip install -q torch==2.13.0 numpy
  site=$(.venv312/bin/python -c 'import site; print(site.getsitepackages()[0])')
  tar -xJf .gpu/cutedsl-*.tar.xz -C "$site"
  .venv312/bin/pip install -q --no-deps --no-index .gpu/*.whl
fi
tarball=${FOS_CACHE_TAR:-.gpu/fos-cache.tar.xz}
mkdir -p "$(dirname "$tarball")"
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export PYTHONPATH=$PWD/packages/fos-reference/src:$PWD/packages/fos-cutedsl/src:$PWD/packages/fos-op/src
FOS_CACHE_DIR=$cache CUTE_DSL_ARCH=sm_90a .venv312/bin/python -m fos_cutedsl.precompile \
  --arch sm_90a --sms 132 | tail -n 1
XZ_OPT=-9e tar -cJf "$tarball.part" -C "$cache" .  # -9e: 1.4 MB, not 2.5 (the carry limit)
mv "$tarball.part" "$tarball"
echo "wrote $tarball ($(du -h "$tarball" | cut -f1)) for fingerprint $(ls "$cache")"

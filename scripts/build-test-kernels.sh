#!/bin/bash
# Regenerate tests/kernels/sass/<arch>/<name>.sass from tests/kernels/src/<name>.cu.
#
#   scripts/build-test-kernels.sh [ARCH...]     (default: sm_61 sm_70 sm_75 sm_86 sm_90)
#
# Needs nvcc and cuobjdump (CUDA 11.8 was used for the committed listings) and a host
# compiler (HOSTCXX, default clang-14; with -cubin it only preprocesses). The listings
# are the unmodified output of `cuobjdump -sass` of one cubin per source file.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$ROOT/tests/kernels/src
OUT=$ROOT/tests/kernels/sass
HOSTCXX=${HOSTCXX:-clang-14}
ARCHS=${*:-sm_61 sm_70 sm_75 sm_86 sm_90}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for ARCH in $ARCHS; do
  mkdir -p "$OUT/$ARCH"
  for cu in "$SRC"/*.cu; do
    name=$(basename "$cu" .cu)
    nvcc -ccbin "$HOSTCXX" -cubin -O3 -arch="$ARCH" "$cu" -o "$TMP/$name.cubin"
    cuobjdump -sass "$TMP/$name.cubin" > "$OUT/$ARCH/$name.sass"
  done
  echo "$ARCH: $(ls "$OUT/$ARCH" | wc -l) listings"
done

#!/bin/bash
# Regenerate, from tests/kernels/occupancy/src/<name>.cu, one cubin per architecture and from it
#   tests/kernels/occupancy/sass/<arch>/<name>.sass       (`cuobjdump -sass`)
#   tests/kernels/occupancy/dump/<arch>/<name>.nvdisasm   (`nvdisasm`, the whole cubin)
#   tests/kernels/occupancy/res-usage/<arch>/<name>.txt   (`cuobjdump -res-usage`)
#
#   scripts/build-occupancy-kernels.sh [ARCH...]   (default: sm_61 sm_70 sm_75 sm_86 sm_90)
#
# Kept apart from tests/kernels/{sass,dump}, which other tests read whole. Needs nvcc,
# cuobjdump and nvdisasm (CUDA 11.8 for the committed files) and clang-14 as host compiler.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$ROOT/tests/kernels/occupancy
HOSTCXX=${HOSTCXX:-clang-14}
ARCHS=${*:-sm_61 sm_70 sm_75 sm_86 sm_90}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for ARCH in $ARCHS; do
  mkdir -p "$DIR/sass/$ARCH" "$DIR/dump/$ARCH" "$DIR/res-usage/$ARCH"
  for cu in "$DIR"/src/*.cu; do
    name=$(basename "$cu" .cu)
    nvcc -ccbin "$HOSTCXX" -cubin -O3 -arch="$ARCH" "$cu" -o "$TMP/$name.cubin"
    cuobjdump -sass "$TMP/$name.cubin" > "$DIR/sass/$ARCH/$name.sass"
    nvdisasm "$TMP/$name.cubin" > "$DIR/dump/$ARCH/$name.nvdisasm"
    cuobjdump -res-usage "$TMP/$name.cubin" > "$DIR/res-usage/$ARCH/$name.txt"
  done
done

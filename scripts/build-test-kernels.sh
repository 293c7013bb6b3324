#!/bin/bash
# Regenerate, from tests/kernels/src/<name>.cu, one cubin per architecture and from it both
#   tests/kernels/sass/<arch>/<name>.sass       (`cuobjdump -sass`)
#   tests/kernels/dump/<arch>/<name>.nvdisasm   (`nvdisasm`, the whole cubin: data sections too)
#   tests/kernels/dump-hex/<arch>/<name>.nvdisasm  (`nvdisasm -hex -c`: code sections with
#                                                 their encodings; sm_61 and sm_86 only, one
#                                                 per layout of the control bits)
#
#   scripts/build-test-kernels.sh [ARCH...]     (default: sm_61 sm_70 sm_75 sm_86 sm_90)
#
# Needs nvcc, cuobjdump and nvdisasm (CUDA 11.8 was used for the committed files) and a host
# compiler (HOSTCXX, default clang-14; with -cubin it only preprocesses). Both files are the
# unmodified output of their tool on the same cubin, which is not kept.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=$ROOT/tests/kernels/src
OUT=$ROOT/tests/kernels/sass
DUMP=$ROOT/tests/kernels/dump
HEX=$ROOT/tests/kernels/dump-hex
HEX_ARCHS="sm_61 sm_86"
HOSTCXX=${HOSTCXX:-clang-14}
ARCHS=${*:-sm_61 sm_70 sm_75 sm_86 sm_90}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for ARCH in $ARCHS; do
  mkdir -p "$OUT/$ARCH" "$DUMP/$ARCH"
  for cu in "$SRC"/*.cu; do
    name=$(basename "$cu" .cu)
    nvcc -ccbin "$HOSTCXX" -cubin -O3 -arch="$ARCH" "$cu" -o "$TMP/$name.cubin"
    cuobjdump -sass "$TMP/$name.cubin" > "$OUT/$ARCH/$name.sass"
    nvdisasm "$TMP/$name.cubin" > "$DUMP/$ARCH/$name.nvdisasm"
    if [[ " $HEX_ARCHS " == *" $ARCH "* ]]; then
      mkdir -p "$HEX/$ARCH"
      nvdisasm -hex -c "$TMP/$name.cubin" > "$HEX/$ARCH/$name.nvdisasm"
    fi
  done
  echo "$ARCH: $(ls "$OUT/$ARCH" | wc -l) listings, $(ls "$DUMP/$ARCH" | wc -l) dumps"
done

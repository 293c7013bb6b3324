#!/usr/bin/env bash
# Builds the playground for a static host: installs what is missing (scripts/setup.sh),
# builds the release site into dist/ and prints the size of each file, raw and gzipped (as
# hosts usually send them). Publish dist/ as it is, in any directory of any static host: every
# URL in it is relative, so a sub-path works as the root does (docs/hosting.md).
# Extra arguments go to `trunk build`.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" serve

trunk build --release "$@"

printf '\n%12s %12s  %s\n' bytes gzipped 'dist/ (the service worker caches all but the .map files)'
raw_total=0
gz_total=0
while IFS= read -r file; do
  raw=$(wc -c < "$file")
  gz=$(gzip -9 -c "$file" | wc -c)
  printf '%12d %12d  %s\n' "$raw" "$gz" "${file#dist/}"
  case "$file" in
    *.map) ;;
    *) raw_total=$((raw_total + raw)) gz_total=$((gz_total + gz)) ;;
  esac
done < <(find dist -type f | sort)
printf '%12d %12d  %s\n' "$raw_total" "$gz_total" 'total a first visit loads (all but the .map files)'
wasm=$(find dist -name '*_bg.wasm')
echo "site wasm: $(wc -c < "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped"

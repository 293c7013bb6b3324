#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 600) each, seeded from the shared corpus
# (copied into the git-ignored fuzz/corpus, never into the repository), and prints libFuzzer's
# final statistics. Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
#   bash fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo +nightly fuzz list)
shared=${WARPBOUND_CORPUS:-../../shared/corpus}
seed() { # target, source files...
  local dir=corpus/$1; shift
  mkdir -p "$dir"
  for f in "$@"; do [ -f "$f" ] && cp -n "$f" "$dir/" ; done
}
seed sass_parser "$shared"/sass/*
# Whole nvdisasm dumps of the repository's own course kernels (same names on every arch).
for f in ../tests/kernels/dump/*/*.nvdisasm; do
  [ -f "$f" ] && cp -n "$f" "corpus/sass_parser/dump-$(basename "$(dirname "$f")")-$(basename "$f")"
done
seed lc_parser
printf 'LLCLL' > corpus/lc_parser/llcll
printf 'kernel = LCLLC\nwarp_number = 8\nls_unit_number = 16\ncuda_core_number = 32\nwarp_size = 32\n' > corpus/lc_parser/fig4
mkdir -p corpus/analyze_request
for f in "$shared"/sass/*; do { printf '\001\000'; cat "$f"; } > "corpus/analyze_request/$(basename "$f")"; done
printf '\003\002LLCLL' > corpus/analyze_request/lc
seed gcn_parser "$shared"/gcn/*.s
seed ptx_parser "$shared"/ptx/*.ptx
seed simd_parser "$shared"/simd/*.sas
for f in "$shared"/simd/*.sas; do { printf '\004\001'; cat "$f"; } > "corpus/analyze_request/simd-$(basename "$f")"; done
for f in "$shared"/gcn/*.s; do { printf '\005\001'; cat "$f"; } > "corpus/analyze_request/gcn-$(basename "$f")"; done
{ printf '\006\001'; cat "$shared"/pws/fig2.csv; } > corpus/analyze_request/fig2.csv
for f in "$shared"/ptx/*.ptx; do { printf '\007\001'; cat "$f"; } > "corpus/analyze_request/ptx-$(basename "$f")"; done
for f in "$shared"/sass/*; do { printf '\010\001'; cat "$f"; } > "corpus/analyze_request/sim-$(basename "$f")"; done
for t in "${targets[@]}"; do
  echo "== $t ($seconds s)"
  cargo +nightly fuzz run -O "$t" -- -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=4096 2>&1 \
    | grep -E '^(#[0-9]+ +DONE|Done|==[0-9]+== ERROR|SUMMARY|artifact_prefix|Test unit written)' || true
done

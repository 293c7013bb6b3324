#!/usr/bin/env bash
# Installs whatever this project needs and is missing, then exports the environment the build
# uses. Sourced by scripts/serve.sh and scripts/test.sh; safe to run again (every step checks
# first). Pinned versions live here and in Trunk.toml / package.json / Cargo.toml.
#
#   source scripts/setup.sh [serve|test]
#
# `test` also installs Debian's Chromium for the browser tests.

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
purpose="${1:-serve}"

say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }

export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

if ! command -v cargo >/dev/null; then
  echo "cargo not found: install Rust (rustup) first" >&2
  exit 1
fi
if ! command -v npm >/dev/null; then
  say "installing Node.js and npm (Debian)"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    rustup component add "$component"
  fi
done

if ! trunk --version 2>/dev/null | grep -q "trunk $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (takes a while, once)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (takes a while, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# npm packages: esbuild (bundles www/src), binaryen (wasm-opt 132), playwright-core (tests),
# highs (HiGHS as WebAssembly: the oracle for the makespan ILP in tests/oracle).
if ! npm ls --depth=0 >/dev/null 2>&1; then
  say "installing npm packages"
  npm ci --no-audit --no-fund
fi

if [ "$purpose" = test ] && [ ! -x /usr/bin/chromium ]; then
  say "installing Debian chromium for the browser tests"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

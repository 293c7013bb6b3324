#!/usr/bin/env bash
# Command 2: install what is missing and run every test: formatting, lints, the Rust tests,
# the release wasm build (site + pkg/), the JavaScript package test and the browser tests.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" test

step() { printf '\n\033[1;34m==> %s\033[0m\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (native and wasm32), warnings are errors"
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo clippy -p warpbound-wasm --target wasm32-unknown-unknown --locked -- -D warnings

step "cargo test"
cargo test --workspace --locked

step "release build of the site (scripts/build-site.sh) and of pkg/ (wasm-bindgen)"
bash scripts/build-site.sh
wasm-bindgen --target web --out-dir pkg --out-name warpbound \
  target/wasm32-unknown-unknown/release/warpbound_wasm.wasm

step "JavaScript package, ILP oracle (HiGHS) and browser tests"
cargo build -p warpbound-cli --locked
cargo build --release -p warpbound-cli --locked
node --test tests/pkg/ tests/oracle/ tests/browser/

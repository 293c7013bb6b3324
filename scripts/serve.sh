#!/usr/bin/env bash
# Command 1: install what is missing, build, and serve the playground on http://127.0.0.1:8080
# (extra arguments go to `trunk serve`, e.g. --release).
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" serve
echo "Serving the playground on http://127.0.0.1:8080 (Ctrl+C stops)"
exec trunk serve "$@"

#!/usr/bin/env bash
# Command 1: install what is missing, build the site as it is published (the release build of
# scripts/build-site.sh: the small wasm, the service worker) and serve it on
# http://127.0.0.1:8080, rebuilding when a source changes. The output goes to dist-serve/, so
# the release site in dist/ is never overwritten. No auto-reload: Trunk's reload script is
# inline, which the page's Content-Security-Policy refuses (users never get it either); a
# rebuilt page is offered by its "New version: reload" button, as a redeployment is.
# Extra arguments go to `trunk serve`.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" serve
echo "Serving the playground (release build, in dist-serve/) on http://127.0.0.1:8080 (Ctrl+C stops)"
exec trunk serve --release --dist dist-serve --no-autoreload "$@"

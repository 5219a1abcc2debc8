#!/usr/bin/env bash
# The HTML report in a real browser (issue 52): writes the specifics fixture's
# report with `--html`, then headless Chromium (playwright-core from npm, cached
# under ~/.cache/noalloc-html-report) loads it from disk, opens a finding's chain by
# clicking it, takes a screenshot, and checks that the page made no request but for
# itself (server/tests/e2e/html_report.mjs). Outside CI, a machine without Chromium
# or npm skips with a notice.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
export CARGO_TERM_COLOR=never
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}"
cache=${NOALLOC_HTML_REPORT_CACHE:-$HOME/.cache/noalloc-html-report}
mkdir -p "$cache"

skip() {
    if [[ "${CI:-}" == "true" ]]; then
        echo "html-report: FAILED: $1"
        exit 1
    fi
    echo "html-report: SKIPPED: $1"
    exit 0
}

if ! command -v chromium >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; } ||
        skip "no Chromium (apt-get install chromium)"
fi
command -v node >/dev/null && command -v npm >/dev/null || skip "no node/npm"
# The same playwright-core as the VS Code extension's tests.
if [[ ! -f "$cache/node_modules/playwright-core/package.json" ]]; then
    (cd "$cache" && { [[ -f package.json ]] || npm init -y >/dev/null; } &&
        npm install --no-audit --no-fund --silent playwright-core@1.65.1 >/dev/null) ||
        skip "could not install playwright-core from npm"
fi

noalloc_ls=$CARGO_TARGET_DIR/debug/noalloc-ls
if [[ ! -x "$noalloc_ls" ]]; then
    cargo build -p noalloc-ls --bin noalloc-ls
fi

out=$CARGO_TARGET_DIR/html-report
mkdir -p "$out"
# Exit 1: the fixture has findings.
status=0
"$noalloc_ls" --check test-data/specifics --no-cache -q --message-format short --html "$out/specifics.html" >/dev/null || status=$?
if [[ $status -ne 1 ]]; then
    echo "html-report: FAILED: the check exited $status, not 1"
    exit 1
fi
PLAYWRIGHT_DIR=$cache node "$root/server/tests/e2e/html_report.mjs" "$out/specifics.html" "$out/specifics.png" "$(command -v chromium)"
echo "html-report: passed (page and screenshot in $out)"

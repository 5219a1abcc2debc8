#!/usr/bin/env bash
# Runs test.el in batch Emacs (Debian's emacs-nox + elpa-eglot) against NOALLOC_LS on
# a copy of the fixture.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
target=${CARGO_TARGET_DIR:-$HOME/.cache/noalloc-target}
if [[ -z "${NOALLOC_LS:-}" ]]; then
  # The newer of the release and debug builds.
  NOALLOC_LS=$(ls -t "$target/release/noalloc-ls" "$target/debug/noalloc-ls" 2>/dev/null | head -n1 || true)
fi
[[ -x "${NOALLOC_LS:-}" ]] || { echo "emacs test: no noalloc-ls (set NOALLOC_LS)" >&2; exit 2; }
command -v emacs >/dev/null || { echo "emacs test: no emacs (apt-get install emacs-nox elpa-eglot)" >&2; exit 2; }
export NOALLOC_LS

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$here/../vscode/test-fixture" "$tmp/fixture"
status=0
# Not -Q: Debian's site-start puts elpa (eglot, rust-mode) on the load path.
timeout "${NOALLOC_TEST_WALL_S:-420}" emacs --batch -l "$here/test.el" "$tmp/fixture" 2>"$tmp/emacs.err" || status=$?
if [[ $status -ne 0 ]]; then
  echo "emacs test failed (exit $status); stderr:" >&2
  tail -n 40 "$tmp/emacs.err" >&2
fi
exit $status

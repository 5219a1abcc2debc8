#!/usr/bin/env bash
# Builds the extension from a clean clone: npm ci, type check, unit tests, esbuild
# bundle, vsce package. Offline once the npm registry is reachable.
#
#   package.sh                      dist/noalloc-<version>.vsix: finds noalloc-ls through
#                                   noalloc.server.path, PATH or ~/.cargo/bin
#   package.sh --target linux-x64   dist/noalloc-linux-x64-<version>.vsix with the stripped
#                                   release noalloc-ls inside (server/), as rust-analyzer's
#                                   extension ships its server. Targets: linux-x64,
#                                   linux-arm64, alpine-x64, darwin-x64, darwin-arm64,
#                                   win32-x64, win32-arm64 (a CI matrix builds each on its
#                                   own runner, or with that Rust target installed).
#
# NOALLOC_SKIP_NPM_CI=1 reuses an existing node_modules. NOALLOC_SERVER_BINARY=PATH
# packs a noalloc-ls built already (e.g. by `cargo test`) instead of building the
# release one.
set -euo pipefail
cd "$(dirname "$0")"

target=""
while (( $# )); do
  case $1 in
    --target) target=${2:?--target needs a platform, e.g. linux-x64}; shift 2 ;;
    --target=*) target=${1#--target=}; shift ;;
    *) echo "package.sh: unknown argument $1 (usage: package.sh [--target PLATFORM])" >&2; exit 2 ;;
  esac
done

triple=""
exe=""
case $target in
  "") ;;
  linux-x64) triple=x86_64-unknown-linux-gnu ;;
  linux-arm64) triple=aarch64-unknown-linux-gnu ;;
  alpine-x64) triple=x86_64-unknown-linux-musl ;;
  darwin-x64) triple=x86_64-apple-darwin ;;
  darwin-arm64) triple=aarch64-apple-darwin ;;
  win32-x64) triple=x86_64-pc-windows-msvc; exe=.exe ;;
  win32-arm64) triple=aarch64-pc-windows-msvc; exe=.exe ;;
  *) echo "package.sh: unknown target $target (linux-x64, linux-arm64, alpine-x64, darwin-x64, darwin-arm64, win32-x64, win32-arm64)" >&2; exit 2 ;;
esac

if [[ "${NOALLOC_SKIP_NPM_CI:-}" != 1 || ! -d node_modules ]]; then
  npm ci --no-audit --no-fund
fi
npx tsc --noEmit -p .
npm test
npx esbuild src/extension.ts --bundle --outfile=dist/extension.js --external:vscode \
  --format=cjs --platform=node --target=node20 --minify --log-level=warning
version=$(node -p 'require("./package.json").version')

# server/ holds the bundled server of a platform package, and nothing otherwise.
rm -rf server
if [[ -n $target ]]; then
  mkdir -p server
  if [[ -n "${NOALLOC_SERVER_BINARY:-}" ]]; then
    cp "$NOALLOC_SERVER_BINARY" "server/noalloc-ls$exe"
  else
    cargo_target=${CARGO_TARGET_DIR:-../../target}
    (cd ../.. && CARGO_PROFILE_RELEASE_STRIP=symbols cargo build --release --locked -p noalloc-ls --bin noalloc-ls --target "$triple")
    cp "$cargo_target/$triple/release/noalloc-ls$exe" "server/noalloc-ls$exe"
  fi
  chmod +x "server/noalloc-ls$exe"
  # A binary passed in may carry symbols: strip it when the host's strip can.
  if [[ -z $exe ]] && command -v strip >/dev/null && strip --strip-all "server/noalloc-ls$exe" 2>/dev/null; then :; fi
  out="dist/noalloc-${target}-${version}.vsix"
  target_args=(--target "$target")
else
  out="dist/noalloc-${version}.vsix"
  target_args=()
fi
# The README's images are relative paths into media/, shipped inside the .vsix, so
# VS Code's extension page shows them without a repository URL.
npx vsce package "${target_args[@]}" --no-dependencies --allow-missing-repository --no-rewrite-relative-links --out "$out"
rm -rf server
echo "built $(pwd)/$out"

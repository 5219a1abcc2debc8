#!/usr/bin/env bash
# Builds the extension from a clean clone into dist/noalloc-<version>.vsix:
# npm ci, type check, unit tests, esbuild bundle, vsce package. Offline once the npm
# registry is reachable. NOALLOC_SKIP_NPM_CI=1 reuses an existing node_modules.
set -euo pipefail
cd "$(dirname "$0")"

if [[ "${NOALLOC_SKIP_NPM_CI:-}" != 1 || ! -d node_modules ]]; then
  npm ci --no-audit --no-fund
fi
npx tsc --noEmit -p .
npm test
npx esbuild src/extension.ts --bundle --outfile=dist/extension.js --external:vscode \
  --format=cjs --platform=node --target=node20 --minify --log-level=warning
version=$(node -p 'require("./package.json").version')
out="dist/noalloc-${version}.vsix"
# The README's images are relative paths into media/, shipped inside the .vsix, so
# VS Code's extension page shows them without a repository URL.
npx vsce package --no-dependencies --allow-missing-repository --no-rewrite-relative-links --out "$out"
echo "built $(pwd)/$out"

#!/bin/sh
# Install the npm packages when they are missing or older than package-lock.json, so that `npm test`
# and `npm run barge` work on a fresh clone. Node 24 itself comes as the npm package `node`, so the
# system Node only has to run npm. Electron's binary is never downloaded here (it cannot be).
set -eu
cd "$(dirname "$0")/../.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages (npm ci)..." >&2
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund >&2
fi

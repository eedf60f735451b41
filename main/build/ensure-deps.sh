#!/bin/sh
# Install the npm packages when they are missing or older than package-lock.json, so that `npm test`
# and `npm run barge` work on a fresh clone. Node 24 itself comes as the npm package `node`, so the
# system Node only has to run npm. Electron's binary is never downloaded here (it cannot be).
#
# On an older system Node (20, 22), npm warns EBADENGINE for every package that asks for Node 24
# (eight of them): expected, since Barge runs on the Node 24 it installs, but they read as failure.
# They are said once, in one line, and npm's warnings kept back; its errors still show.
set -eu
cd "$(dirname "$0")/../.."
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing npm packages (npm ci)..." >&2
  major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$major" -lt 24 ]; then
    echo "This system's Node is $major: npm's EBADENGINE warnings (packages that ask for Node 24) are expected and left out; Barge runs on the Node 24 it installs." >&2
    ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2
  else
    ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund >&2
  fi
fi

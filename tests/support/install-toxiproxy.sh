#!/usr/bin/env bash
# Install toxiproxy's server, pinned, when it is missing: the fault matrix puts it between the
# engine and MinIO to add latency, bandwidth caps, resets and stalls (this kernel has no netem).
#
#   tests/support/install-toxiproxy.sh
#
# The binary lands in $BARGE_TOOLS_DIR (default ~/.cache/barge/bin) as toxiproxy-server. `go install`
# names it after its package folder ("server"), so it is built into a scratch folder and moved into
# place in one step: a half-copied binary never sits under the final name.
set -euo pipefail
BIN=${BARGE_TOOLS_DIR:-$HOME/.cache/barge/bin}
TOXIPROXY_VERSION=v2.12.0
mkdir -p "$BIN"
[ -x "$BIN/toxiproxy-server" ] && exit 0
command -v go >/dev/null || { echo "Go is needed to build toxiproxy for the fault tests (https://go.dev/dl/)." >&2; exit 1; }
SCRATCH=$(mktemp -d "$BIN/.toxiproxy-build.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
export GOBIN=$SCRATCH GOFLAGS=-buildvcs=false
echo "Building toxiproxy $TOXIPROXY_VERSION..." >&2
go install "github.com/Shopify/toxiproxy/v2/cmd/server@$TOXIPROXY_VERSION"
mv -f "$SCRATCH/server" "$BIN/toxiproxy-server"

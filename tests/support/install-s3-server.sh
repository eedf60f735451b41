#!/usr/bin/env bash
# Install the S3 servers the tests and the benchmark run against, pinned, when they are missing.
#
#   tests/support/install-s3-server.sh [minio] [versitygw]     (default: minio)
#
# Binaries land in $BARGE_TOOLS_DIR (default ~/.cache/barge/bin). MinIO builds from the Go module
# proxy in about 6.5 minutes cold on two cores; Go's build cache makes a rebuild instant. MinIO tags
# are not semver, so the pseudo-version is pinned.
set -euo pipefail
BIN=${BARGE_TOOLS_DIR:-$HOME/.cache/barge/bin}
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
VERSITYGW_VERSION=v1.8.0
mkdir -p "$BIN"
export GOBIN=$BIN GOFLAGS=-buildvcs=false
command -v go >/dev/null || { echo "Go is needed to build the S3 server for the tests (https://go.dev/dl/)." >&2; exit 1; }
for server in "${@:-minio}"; do
  case $server in
    minio) [ -x "$BIN/minio" ] || { echo "Building MinIO $MINIO_VERSION (several minutes the first time)..." >&2; go install "github.com/minio/minio@$MINIO_VERSION"; } ;;
    versitygw) [ -x "$BIN/versitygw" ] || go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" ;;
    *) echo "unknown server: $server (minio or versitygw)" >&2; exit 2 ;;
  esac
done

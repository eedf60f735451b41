#!/usr/bin/env bash
# Debian's Chromium for the end-to-end tests, when it is missing (Playwright's own browser download
# cannot run here). Needs root or sudo for apt-get; CHROMIUM_PATH points elsewhere if it lives there.
set -euo pipefail
browser=${CHROMIUM_PATH:-/usr/bin/chromium}
[ -x "$browser" ] && exit 0
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
echo "Installing Debian's chromium for the end-to-end tests..." >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null

#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (no browser download).
# Installs Chromium when it is missing and this user may install packages.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing chromium for the browser tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
    echo "chromium is not installed and cannot be installed here: the browser tests will fail;" \
         "install it with: sudo apt-get install chromium" >&2
fi

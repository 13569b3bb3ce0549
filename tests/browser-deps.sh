#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through Playwright (no browser download).
# Installs Chromium when it is missing and this user may install packages.
set -euo pipefail
exec bash "$(dirname "$0")/debian-package.sh" chromium chromium "the browser tests"

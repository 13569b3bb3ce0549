#!/usr/bin/env bash
# Installs a Debian package some tests need when its command is missing and this user may
# install packages:  bash tests/debian-deps.sh COMMAND PACKAGE "what needs it"
# Chromium for the browser tests (driven through Playwright, no browser download) and
# Mosquitto for the online-play tests (each test starts its own broker on a free port).
set -euo pipefail
command_name=$1 package=$2 purpose=$3
if command -v "$command_name" >/dev/null 2>&1 || [ -x "/usr/sbin/$command_name" ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing $package for $purpose" >&2
    export DEBIAN_FRONTEND=noninteractive
    # Another install may hold dpkg's lock for a while (an unattended upgrade, a second
    # run of this script): wait for it rather than fail.
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$package" >/dev/null
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$package" >/dev/null
else
    echo "$package is not installed and cannot be installed here: $purpose will fail or" \
         "skip; install it with: sudo apt-get install $package" >&2
fi

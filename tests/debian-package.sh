#!/usr/bin/env bash
# Usage: debian-package.sh COMMAND PACKAGE PURPOSE
# Installs the Debian PACKAGE that provides COMMAND when COMMAND is missing and this user may
# install packages; else says which tests will fail and how to install it.
set -euo pipefail
command=$1 package=$2 purpose=$3
if command -v "$command" >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing $package for $purpose" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "$package" >/dev/null
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" >/dev/null
else
    echo "$command is not installed and cannot be installed here: $purpose will fail;" \
         "install it with: sudo apt-get install $package" >&2
fi

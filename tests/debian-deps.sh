#!/usr/bin/env bash
# Installs Debian packages some tests need when their command is missing and this user may
# install packages:  bash tests/debian-deps.sh COMMAND "PACKAGE..." "what needs it" [SUITE]
# Chromium for the browser tests (driven through Playwright, no browser download), Mosquitto
# for the online-play tests (each test starts its own broker on a free port), and KiCad 9 from
# bookworm-backports (SUITE) for the schematic and board checks: plain bookworm has KiCad 6,
# which has no kicad-cli. A SUITE's source line is added when it is missing.
set -euo pipefail
command_name=$1 packages=$2 purpose=$3 suite=${4:-}
if command -v "$command_name" >/dev/null 2>&1 || [ -x "/usr/sbin/$command_name" ]; then
    exit 0
fi
sudo=()
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo)
fi
if ! command -v apt-get >/dev/null 2>&1 || { [ "$(id -u)" != 0 ] && [ ${#sudo[@]} = 0 ]; } ||
        { [ -n "$suite" ] && ! grep -qs "^VERSION_CODENAME=${suite%%-*}\$" /etc/os-release; }; then
    echo "$packages is not installed and cannot be installed here: $purpose will fail or" \
         "skip; install it with: sudo apt-get install ${suite:+-t $suite }$packages" >&2
    exit 0
fi
echo "installing $packages for $purpose" >&2
options=()
if [ -n "$suite" ]; then
    if ! grep -rqs "$suite" /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "deb http://deb.debian.org/debian $suite main" |
            "${sudo[@]}" tee "/etc/apt/sources.list.d/$suite.list" >/dev/null
    fi
    options=(-t "$suite" --no-install-recommends)
fi
# Another install may hold dpkg's lock for a while (an unattended upgrade, a second run of
# this script): wait for it rather than fail.
"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=600 update -qq
# shellcheck disable=SC2086  # the package list is split into words on purpose
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    "${options[@]}" $packages >/dev/null

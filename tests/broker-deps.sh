#!/usr/bin/env bash
# The online-play tests run a real broker: Debian's Mosquitto, started by the tests on a free
# port. Installs it when it is missing and this user may install packages.
set -euo pipefail
if command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; then
    exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing mosquitto for the online-play tests" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq mosquitto >/dev/null
    # The tests start their own broker; the package's service is not needed.
    (systemctl disable --now mosquitto >/dev/null 2>&1 || service mosquitto stop >/dev/null 2>&1) || true
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo apt-get update -qq
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto >/dev/null
else
    echo "mosquitto is not installed and cannot be installed here: the online-play tests skip;" \
         "install it with: sudo apt-get install mosquitto" >&2
fi

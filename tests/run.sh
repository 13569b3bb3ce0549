#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: makes .venv, installs the package with its
# test dependencies, compiles the engine's hot modules, installs Chromium for the browser
# tests and systemd-analyze for the unit's where it can, then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
# The compiled engine (the pure-Python one plays, and is tested against it, where it cannot be built).
.venv/bin/navakankari build-engine --optional
if [ -f tests/browser-deps.sh ]; then
    bash tests/browser-deps.sh
fi
# systemd-analyze rates and verifies the unit `service install` writes (tests/firmware/test_unit_hardening.py).
bash tests/debian-package.sh systemd-analyze systemd "the systemd unit's tests"
# The layers (contracts in pyproject.toml): a broken one fails the run before any test.
.venv/bin/lint-imports --no-cache
set +e
.venv/bin/python -m pytest "$@"
rc=$?
set -e
exit $rc

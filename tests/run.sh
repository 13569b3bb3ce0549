#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: makes .venv, installs the package with its
# test dependencies, installs Chromium for the browser tests where it can, then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'
if [ -f tests/browser-deps.sh ]; then
    bash tests/browser-deps.sh
fi
set +e
.venv/bin/python -m pytest "$@"
rc=$?
set -e
exit $rc

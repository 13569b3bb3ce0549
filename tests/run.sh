#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: makes .venv, installs the package with its
# test dependencies, compiles the engine's hot modules, installs Chromium for the browser
# tests, espeak-ng and aplay for speech, systemd-analyze for the unit's and KiCad 9 for the
# schematics and the carrier board where it can, then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
# setuptools says "Editable installation ... be careful with folders in your working directory
# with the same name as your package" on every editable install of a package mapped from other
# folders; no folder here is named navakankari, so that notice alone is left out.
PYTHONWARNINGS="ignore:Editable installation.:UserWarning" \
    .venv/bin/python -m pip install --quiet -e '.[dev]'
# The compiled engine (the pure-Python one plays, and is tested against it, where it cannot be built).
.venv/bin/navakankari build-engine --optional
bash tests/debian-deps.sh chromium chromium "the browser tests"
bash tests/debian-deps.sh mosquitto mosquitto "the online-play tests"
# Noto's fonts draw every script the board speaks (Devanagari, Gujarati, Kannada, Telugu,
# Bengali, Tamil) in the browser tests' Chromium; not a command, so asked of fontconfig.
if ! fc-list :lang=gu 2>/dev/null | grep -q .; then
    bash tests/debian-deps.sh fonts-noto-core fonts-noto-core "the pages in Indian scripts"
fi
# espeak-ng and aplay say the board's announcements (tests/firmware/test_speech.py).
bash tests/debian-deps.sh espeak-ng espeak-ng "the speech tests"
bash tests/debian-deps.sh aplay alsa-utils "the speech tests"
# systemd-analyze rates and verifies the unit `service install` writes (tests/firmware/test_unit_hardening.py).
bash tests/debian-deps.sh systemd-analyze systemd "the systemd unit's tests"
# KiCad 9 checks the generated schematics (ERC) and carrier board (DRC) and exports them.
bash tests/debian-deps.sh kicad-cli "kicad kicad-symbols kicad-footprints" "the KiCad checks" \
    bookworm-backports
# The layers (contracts in pyproject.toml): a broken one fails the run before any test.
.venv/bin/lint-imports --no-cache
set +e
# The type check (strict mypy over the packages, laid out for it by tests/typecheck.py) and
# the linter (ruff, over the packages and the tests), both configured in pyproject.toml: a
# problem either finds fails the run, after the tests have run and said what they found.
checks=0
.venv/bin/python tests/typecheck.py || checks=1
.venv/bin/ruff check --quiet . || checks=1
.venv/bin/python -m pytest "$@"
rc=$?
set -e
if [ "$checks" -ne 0 ]; then
    echo "tests/run.sh: the type check or the linter found problems (above)" >&2
    [ "$rc" -ne 0 ] || rc=1
fi
exit $rc

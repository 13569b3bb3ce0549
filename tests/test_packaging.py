"""The package metadata is in the form current setuptools reads without a deprecation warning,
and the test runner quiets only the one notice that does not apply here."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_license_is_an_spdx_expression_with_a_setuptools_that_reads_it():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert data["project"]["license"] == "MIT"  # a table is deprecated since setuptools 77
    requires = data["build-system"]["requires"]
    pins = [r for r in requires if r.startswith("setuptools")]
    assert len(pins) == 1
    floor = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", pins[0])
    assert floor is not None and int(floor.group(1)) >= 77
    assert not any(c.startswith("License ::") for c in data["project"].get("classifiers", []))


def test_the_runner_quiets_only_the_editable_install_notice():
    script = (ROOT / "tests" / "run.sh").read_text()
    filters = re.findall(r'PYTHONWARNINGS="([^"]*)"', script)
    assert filters == ["ignore:Editable installation.:UserWarning"]
    assert not (ROOT / "navakankari").exists()  # the folder that notice warns of

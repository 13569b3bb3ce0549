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


def test_the_files_tests_read_through_a_package_are_installed_with_it():
    """A test that reads `resources.files("navakankari.X").joinpath(NAME)` must find NAME in
    an installed copy too (as on a Pi, where tests/engine runs against /opt/navakankari):
    NAME is in the package's package-data."""
    from fnmatch import fnmatch

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    read = re.compile(r'files\("(navakankari\.[a-z_.]+)"\)\.joinpath\("([^"]+)"\)')
    found = []
    for test in (ROOT / "tests").rglob("*.py"):
        for package, name in read.findall(test.read_text(encoding="utf-8")):
            found.append((package, name))
            assert any(fnmatch(name, glob) for glob in data.get(package, [])), \
                f"{test.relative_to(ROOT)} reads {name} of {package}, which is not package data"
    assert ("navakankari.engine", "README.md") in found

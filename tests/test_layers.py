"""The import contracts in pyproject.toml hold, and each kind of break is caught.

A planted import goes into a copy of the sources renamed to another top package, so the
check runs on exactly the contracts the project ships without touching the real tree.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "hal", "sim", "firmware", "wiring")
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
        "sys.exit(lint_imports_command())"]


def _lint(cwd: Path, config: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([*LINT, "--config", str(config), "--no-cache"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sources as the package `plantedcopy`, with the project's contracts renamed."""
    base = tmp_path_factory.mktemp("layers")
    top = base / "plantedcopy"
    for name in PACKAGES:
        shutil.copytree(ROOT / name, top / name,
                        ignore=shutil.ignore_patterns("__pycache__", "_native", "*.bin", "*.svg"))
    for path in top.rglob("*.py"):
        path.write_text(path.read_text().replace("navakankari.", "plantedcopy."))
    config = (ROOT / "pyproject.toml").read_text()
    section = config[config.index("[tool.importlinter]"):]
    (base / "pyproject.toml").write_text(section.replace("navakankari.", "plantedcopy."))
    return base


def _plant(copy: Path, module: str, line: str) -> Path:
    path = copy / "plantedcopy" / (module.replace(".", "/") + ".py")
    original = path.read_text()
    # after the module docstring and `from __future__`, where an import belongs
    body = re.sub(r"(from __future__ import annotations\n)", r"\1" + line + "\n", original, count=1)
    assert body != original, path
    path.write_text(body)
    return path


def test_the_shipped_sources_keep_every_contract() -> None:
    result = _lint(ROOT, ROOT / "pyproject.toml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_renamed_copy_keeps_them_too(copy: Path) -> None:
    result = _lint(copy, copy / "pyproject.toml", copy)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("firmware.core.session", "from plantedcopy.firmware.daemon import loop",
     "The firmware's rooms are layered"),
    ("firmware.core.tracker", "from plantedcopy.firmware.companion import server",
     "The firmware's rooms are layered"),
    ("engine.game", "from plantedcopy.hal import sensors", "The engine imports nothing of ours"),
    ("hal.leds", "from plantedcopy.sim import clock", "The hardware layer imports only"),
    ("sim.clock", "from plantedcopy.engine import boards", "The simulated board imports only"),
    ("firmware.docs.bom", "from plantedcopy.firmware.core import lights",
     "The build documents import only"),
    ("hal.profile", "from plantedcopy.firmware.docs import plate", "The hardware layer imports only"),
    ("engine.boards", "from plantedcopy.engine import variants", "No import cycles anywhere"),
])
def test_a_planted_import_breaks_its_contract(copy: Path, module: str, line: str,
                                              contract: str) -> None:
    path = _plant(copy, module, line)
    original = path.read_text().replace(line + "\n", "")
    try:
        result = _lint(copy, copy / "pyproject.toml", copy)
    finally:
        path.write_text(original)
    assert result.returncode == 1, result.stdout
    broken = result.stdout[result.stdout.index("Broken contracts"):]
    assert contract in broken, broken

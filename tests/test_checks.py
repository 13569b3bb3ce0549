"""The type check and the linter that tests/run.sh runs catch what they are there for.

A type error and an undefined name are planted in a copy of the engine (the one package that
imports nothing else of ours, so the copy is checked alone); the copy passes as shipped and
fails, naming the planted line, once planted. The real tree is never touched.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import typecheck  # noqa: E402 - tests/ is not a package

PLANTED = '''

def _planted_count(board: Board) -> int:
    return board.points[0]
'''


@pytest.fixture(scope="module")
def engine_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("checks")
    shutil.copytree(ROOT / "engine", base / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "_native", "*.bin"))
    shutil.copy(ROOT / "pyproject.toml", base / "pyproject.toml")
    return base


def _mypy(base: Path) -> subprocess.CompletedProcess[str]:
    return typecheck.run({"navakankari.engine": base / "engine"}, tree=base / "tree",
                         config=base / "pyproject.toml", cache=base / "cache")


def test_a_planted_type_error_fails_the_type_check(engine_copy: Path) -> None:
    clean = _mypy(engine_copy)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    boards = engine_copy / "engine" / "boards.py"
    shipped = boards.read_text()
    boards.write_text(shipped + PLANTED)
    line = shipped.count("\n") + PLANTED.count("\n")
    try:
        planted = _mypy(engine_copy)
    finally:
        boards.write_text(shipped)
    assert planted.returncode == 1, planted.stdout + planted.stderr
    assert f"engine/boards.py:{line}: error: Incompatible return value type" in planted.stdout, \
        planted.stdout


def test_an_unneeded_type_ignore_fails_the_type_check(engine_copy: Path) -> None:
    boards = engine_copy / "engine" / "boards.py"
    shipped = boards.read_text()
    boards.write_text(shipped + "\nSPARE: int = 1  # type: ignore[assignment]\n")
    try:
        planted = _mypy(engine_copy)
    finally:
        boards.write_text(shipped)
    assert planted.returncode == 1 and 'Unused "type: ignore" comment' in planted.stdout, \
        planted.stdout


def test_a_planted_undefined_name_fails_the_linter(engine_copy: Path) -> None:
    ruff = [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise"]
    clean = subprocess.run([*ruff, "engine"], cwd=engine_copy, capture_output=True, text=True)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    boards = engine_copy / "engine" / "boards.py"
    shipped = boards.read_text()
    boards.write_text(shipped + "\n\ndef _planted() -> int:\n    return undefined_here\n")
    try:
        planted = subprocess.run([*ruff, "engine"], cwd=engine_copy, capture_output=True,
                                 text=True)
    finally:
        boards.write_text(shipped)
    assert planted.returncode == 1, planted.stdout + planted.stderr
    assert "F821 Undefined name `undefined_here`" in planted.stdout, planted.stdout

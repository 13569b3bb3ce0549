"""The compiled build: loaded only while it matches the sources, and it plays exactly as the
pure-Python reference does."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from navakankari.engine import native

# Perft and fixed-depth searches over every family and phase, printed as JSON: the compiled
# and the pure engine must print the same.
PROBE = r"""
import json, sys
from navakankari.engine import native, game_from_position, new_game, preset
from navakankari.firmware.tools.engine_bench import MOVING_POSITION
from navakankari.engine.perft import perft
from navakankari.engine.search import Searcher
from navakankari.firmware.tools.search_bench import MIDGAME_POSITION
nmm = preset("nine-mens-morris")
games = [
    ("nine-mens-morris", new_game(nmm), 4, 5),
    ("midgame", game_from_position(nmm, MIDGAME_POSITION), 3, 6),
    ("moving", game_from_position(nmm, MOVING_POSITION), 5, 8),
    ("navakankari", new_game(preset("navakankari")), 3, 4),
    ("morabaraba", new_game(preset("morabaraba")), 3, 4),
    ("lasker", new_game(preset("lasker")), 3, 4),
    ("nau-keti-keta", new_game(preset("nau-keti-keta")), 8, 8),
    # The endgame database: three against three, and a capture into it.
    ("3v3", game_from_position(nmm, "********/***O**O*/O**@**@@ w m s 3 0 3 0 0 0 0 0 0 0 0 0 1"),
     2, 3),
    ("4v3", game_from_position(nmm, "O****O**/*O*@*@**/*O*****@ b m s 4 0 3 0 0 0 0 0 0 0 0 0 1"),
     2, 5),
]
out = {"active": native.state().active}
for name, game, pdepth, sdepth in games:
    info = Searcher().search(game, max_depth=sdepth)
    out[name] = [perft(game, pdepth), str(info.action), info.score, info.depth, info.nodes,
                 [str(a) for a in info.pv], game.position()]
print(json.dumps(out))
"""


def _probe(pure: bool) -> dict:
    env = dict(os.environ)
    env.pop(native.PURE_ENV, None)
    if pure:
        env[native.PURE_ENV] = "1"
    proc = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_compiled_build_plays_exactly_as_the_pure_engine():
    state = native.check()
    if not state.active and not os.environ.get("CI"):
        pytest.skip(f"no compiled build here: {state.reason}")
    compiled, pure = _probe(pure=False), _probe(pure=True)
    assert compiled.pop("active") is True, "the compiled build was not loaded"
    assert pure.pop("active") is False
    assert compiled == pure


def _fake_build(native_dir: Path, source_dir: Path, digest: str | None = None) -> None:
    native_dir.mkdir(parents=True, exist_ok=True)
    (native_dir / "DIGEST").write_text((digest or native.source_digest(source_dir)) + "\n")


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for name in native.COMPILED:
        shutil.copy2(Path(native.__file__).with_name(f"{name}.py"), src / f"{name}.py")
    for name in (native.CORE_SOURCE, *native.CORE_TABLES):
        shutil.copy2(Path(native.__file__).with_name(name), src / name)
    return src


def test_a_build_for_these_sources_is_used(tmp_path, sources, monkeypatch):
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    _fake_build(tmp_path / "nat", sources)
    state = native.check(tmp_path / "nat", sources)
    assert state.active, state.reason


def test_an_edited_source_retires_the_build(tmp_path, sources, monkeypatch):
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    _fake_build(tmp_path / "nat", sources)
    with (sources / "search.py").open("a") as f:
        f.write("\n# edited\n")
    state = native.check(tmp_path / "nat", sources)
    assert not state.active
    assert "older than the sources" in state.reason


def test_no_build_and_the_pure_switch_are_named(tmp_path, sources, monkeypatch):
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    state = native.check(tmp_path / "none", sources)
    assert not state.active and "navakankari build-engine" in state.reason
    _fake_build(tmp_path / "nat", sources)
    for off in ("", "0"):
        monkeypatch.setenv(native.PURE_ENV, off)
        assert native.check(tmp_path / "nat", sources).active
    monkeypatch.setenv(native.PURE_ENV, "1")
    state = native.check(tmp_path / "nat", sources)
    assert not state.active and native.PURE_ENV in state.reason


def test_the_digest_covers_every_compiled_module(sources):
    before = native.source_digest(sources)
    for name in [f"{name}.py" for name in native.COMPILED] + [*native.CORE_TABLES]:
        path = sources / name
        text = path.read_text()
        path.write_text(text + " ")
        assert native.source_digest(sources) != before, name
        path.write_text(text)
    assert native.source_digest(sources) == before


def test_activate_leaves_the_path_alone_without_a_current_build(monkeypatch, tmp_path):
    monkeypatch.setattr(native, "_state", native._state)
    monkeypatch.setattr(native, "NATIVE_DIR", tmp_path / "none")
    path = ["/somewhere/engine"]
    state = native.activate(path)
    assert not state.active
    assert path == ["/somewhere/engine"]


def test_a_stale_build_is_left_unused_with_a_warning(monkeypatch, tmp_path, caplog):
    monkeypatch.setattr(native, "_state", native._state)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    nat = tmp_path / "nat"
    _fake_build(nat, Path(native.__file__).parent)
    (nat / "DIGEST").write_text("a build of older sources\n")
    monkeypatch.setattr(native, "NATIVE_DIR", nat)
    path = ["/somewhere/engine"]
    with caplog.at_level(logging.DEBUG, logger=native.__name__):
        state = native.activate(path)
    assert not state.active and state.stale
    assert path == ["/somewhere/engine"]
    # Quiet at import (before any command has set up logging); a command warns.
    assert [r.levelno for r in caplog.records] == [logging.DEBUG]
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger=native.__name__):
        native.warn_if_stale()
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    assert "navakankari build-engine" in caplog.records[0].getMessage()


def test_every_command_but_the_rebuild_warns_of_a_stale_build(monkeypatch, caplog, tmp_path):
    from navakankari.firmware.cli import main as cli

    monkeypatch.setattr(native, "_state", native.NativeState(False, "older", stale=True))
    monkeypatch.setattr(native, "NATIVE_DIR", tmp_path / "none")
    monkeypatch.setattr(native, "build", lambda *a, **k: 1.0)
    stale = [logging.WARNING]

    def warnings(argv: list[str]) -> list[int]:
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger=native.__name__):
            assert cli.main(argv) == 0
        return [r.levelno for r in caplog.records if r.name == native.__name__]

    assert warnings(["perft", "--depth", "1"]) == stale
    assert warnings(["build-engine"]) == []


def test_activate_puts_a_current_build_first(monkeypatch, tmp_path):
    monkeypatch.setattr(native, "_state", native._state)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    nat = tmp_path / "nat"
    _fake_build(nat, Path(native.__file__).parent)
    monkeypatch.setattr(native, "NATIVE_DIR", nat)
    monkeypatch.setattr(sys, "path", list(sys.path))
    path = ["/somewhere/engine"]
    assert native.activate(path).active
    assert path == [str(nat / "navakankari" / "engine"), "/somewhere/engine"]
    assert str(nat) in sys.path


def test_without_mypyc_the_c_core_is_built_alone(monkeypatch, tmp_path):
    # A Pi has the C compiler its LED library needs, but mypy is a large install: the core
    # alone still makes the morris search fast.
    monkeypatch.setitem(sys.modules, "mypyc", None)  # import mypyc now raises ImportError
    said: list[str] = []
    native.build(tmp_path / "nat", out=said.append)
    assert any("mypyc is not installed" in line for line in said)
    assert (tmp_path / "nat" / native.CORE_LIBRARY).is_file()
    state = native.built_state(tmp_path / "nat")
    assert state.active and not state.modules and "uncompiled" in state.reason
    # Such a build is used: the morris search runs in its core, as the Python search would.
    from navakankari.engine import core, new_game, preset
    from navakankari.engine.search import Searcher

    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.setattr(native, "NATIVE_DIR", tmp_path / "nat")
    monkeypatch.setattr(native, "_state", native.check(tmp_path / "nat"))
    core._library.cache_clear()
    core._config.cache_clear()
    try:
        assert core.available() and native.state().active
        game = new_game(preset("nine-mens-morris"))
        fast, slow = Searcher().search(game, max_depth=5), Searcher(native=False).search(
            game, max_depth=5)
        assert (fast.action, fast.score, fast.nodes) == (slow.action, slow.score, slow.nodes)
        assert Searcher()._core_for(game) is not None
    finally:
        core._library.cache_clear()
        core._config.cache_clear()


def test_a_failed_compile_names_the_error_and_keeps_the_old_build(monkeypatch, tmp_path):
    pytest.importorskip("mypyc")
    nat = tmp_path / "nat"
    _fake_build(nat, Path(native.__file__).parent, digest="old")
    src = tmp_path / "src"
    shutil.copytree(Path(native.__file__).parent, src,
                    ignore=shutil.ignore_patterns("_native*", "__pycache__"))
    (src / "evaluate.py").write_text((src / "evaluate.py").read_text()
                                     + "\n\ndef broken() -> int:\n    return 'a string'\n")
    with pytest.raises(native.NativeBuildError, match="mypyc failed"):
        native.build(nat, src, out=lambda s: None)
    assert (nat / "DIGEST").read_text().strip() == "old"


def test_build_engine_optional_exits_0_when_it_cannot_build(monkeypatch, capsys, tmp_path):
    from navakankari.firmware.cli import main as cli

    def fail(*args, **kwargs):
        raise native.NativeBuildError("no compiler here")

    monkeypatch.setattr(native, "NATIVE_DIR", tmp_path / "none")
    monkeypatch.setattr(native, "build", fail)
    assert cli.main(["build-engine"]) == 1
    assert "no compiler here" in capsys.readouterr().err
    assert cli.main(["build-engine", "--optional"]) == 0
    assert "pure-Python engine plays instead" in capsys.readouterr().err


def test_bench_says_which_engine_runs(capsys):
    from navakankari.firmware.cli import main as cli

    assert cli.main(["bench", "engine", "--quick"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == native.describe()
    assert first.startswith("engine: compiled (" if native.state().active else "engine: pure Python (")


def test_build_engine_skips_a_build_that_matches_the_sources(monkeypatch, capsys, tmp_path):
    """The README's second command runs build-engine again: with the first one's build still
    current it compiles nothing, unless --force says so; NAVAKANKARI_PURE changes nothing."""
    from navakankari.firmware.cli import main as cli

    nat = tmp_path / "nat"
    _fake_build(nat, Path(native.__file__).parent)
    monkeypatch.setattr(native, "NATIVE_DIR", nat)
    monkeypatch.setenv(native.PURE_ENV, "1")
    built: list[str] = []
    monkeypatch.setattr(native, "build", lambda *a, **k: built.append("built") or 1.0)
    assert cli.main(["build-engine", "--optional"]) == 0
    assert built == []
    assert capsys.readouterr().out == (f"the compiled engine is up to date ({nat}); "
                                       "--force rebuilds it\n")
    assert cli.main(["build-engine", "--force"]) == 0
    assert built == ["built"]
    (nat / "DIGEST").write_text("old\n")  # the sources changed since
    assert cli.main(["build-engine"]) == 0
    assert built == ["built", "built"]

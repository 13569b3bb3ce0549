"""The optional compiled build of the engine's hot modules, and the switch that loads it.

The pure-Python modules are the reference. `build()` compiles the morris search's C core
(core.c with the header core_header.py writes from the Python tables, loaded by core.py: a
C compiler is all it needs) and, where the `mypy` package is installed, the very same source
files with mypyc, into `_native/` beside them, together with a digest of those sources.
`activate()`, run when the engine package is imported, puts that folder first on the
package's path only while the digest still matches the sources, so an edited module is never
shadowed by a stale build, and never when `NAVAKANKARI_PURE` is set.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .errors import WordedError
from .translator import N_, Nn_

log = logging.getLogger(__name__)

#: The modules compiled: the game state, move generation, evaluation and search. Every
#: subclass of a compiled class must be compiled too, hence the jump game.
COMPILED = ("actions", "game", "morris", "jump", "evaluate", "search")
#: The C core's source, and the library built from it (see core.py).
CORE_SOURCE = "core.c"
#: The Python the core's header is written from (core_header.py): in the digest too.
CORE_TABLES = ("core_tables.py", "core_header.py")
CORE_LIBRARY = "libnavakankari_core.so"
#: Set (to anything but "" or "0") to run the pure-Python engine although a build is present.
PURE_ENV = "NAVAKANKARI_PURE"

HERE = Path(__file__).resolve().parent
NATIVE_DIR = HERE / "_native"
PACKAGE = "navakankari.engine"


class NativeBuildError(WordedError, RuntimeError):
    """The compiled build could not be made; the pure-Python engine still works. The
    compiler's own output is a place, kept as it is (errors.py)."""


@dataclass(frozen=True)
class NativeState:
    """Whether a current build is in use (its C core, and its compiled modules where it has
    them), and why not when it is not."""

    active: bool
    reason: str
    modules: bool = True  #: the build has the mypyc-compiled modules (not only the C core)
    stale: bool = False  #: a build is there but of other sources: the pure engine plays


def source_digest(source_dir: Path = HERE) -> str:
    """A digest of the compiled modules' sources and of the interpreter they are built for."""
    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    h.update((sysconfig.get_config_var("EXT_SUFFIX") or "").encode())
    for name in COMPILED:
        h.update(name.encode())
        h.update((source_dir / f"{name}.py").read_bytes())
    for name in (CORE_SOURCE, *CORE_TABLES):
        h.update((source_dir / name).read_bytes())
    return h.hexdigest()


def _module_dir(native_dir: Path) -> Path:
    return native_dir.joinpath(*PACKAGE.split("."))


def _forced_pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def built_state(native_dir: Path | None = None, source_dir: Path = HERE) -> NativeState:
    """Whether `native_dir` holds a build of exactly the sources in `source_dir` (whatever
    `NAVAKANKARI_PURE` says): `build` is then not needed."""
    native_dir = native_dir or NATIVE_DIR
    stamp = native_dir / "DIGEST"
    if not stamp.is_file():
        return NativeState(False, "no compiled build (navakankari build-engine makes one)")
    if stamp.read_text().strip() != source_digest(source_dir):
        return NativeState(False, "the compiled build is older than the sources "
                                  "(navakankari build-engine rebuilds it)", stale=True)
    if not any(_module_dir(native_dir).glob("search.*")):
        return NativeState(True, f"C core in {native_dir}; the Python modules uncompiled "
                                 "(mypy was not installed)", modules=False)
    return NativeState(True, f"compiled build in {native_dir}")


def check(native_dir: Path | None = None, source_dir: Path = HERE) -> NativeState:
    """Whether a build in `native_dir` may be loaded for the sources in `source_dir`."""
    if _forced_pure():
        return NativeState(False, f"{PURE_ENV} is set")
    return built_state(native_dir, source_dir)


_state = NativeState(False, "not checked")


def activate(package_path: list[str]) -> NativeState:
    """Put a current build first on the engine package's path (before any hot module is
    imported); otherwise leave the pure modules in place and say why."""
    global _state
    try:
        _state = check()
    except OSError as exc:  # an unreadable stamp or source: the pure engine still runs
        _state = NativeState(False, f"the compiled build could not be checked: {exc}")
    if _state.active:
        package_path.insert(0, str(_module_dir(NATIVE_DIR)))
        # The compiled modules share one runtime library, imported by its top-level name.
        if str(NATIVE_DIR) not in sys.path:
            sys.path.append(str(NATIVE_DIR))
    log.debug("engine: %s", _state.reason)
    return _state


def warn_if_stale() -> None:
    """Say as a warning that a build is there but of other sources: the one case a developer
    does not expect, since after a pull that changed the C core every search is the slower
    pure one and any timing taken is of it. The commands call it once logging is set up, all
    but the one that rebuilds (at import it would print before the rebuild it announces)."""
    if _state.stale:
        log.warning("engine: %s", _state.reason)


def state() -> NativeState:
    """What `activate` decided, and whether the hot modules really came from the build."""
    if not _state.active or not _state.modules:
        return _state
    module = sys.modules.get(f"{PACKAGE}.search")
    if module is not None and not str(getattr(module, "__file__", "")).startswith(str(NATIVE_DIR)):
        return NativeState(False, f"the build was found but {module.__file__} was loaded")
    return _state


def describe() -> str:
    """One line for benchmarks and logs: which engine runs."""
    s = state()
    return f"engine: {'compiled' if s.active else 'pure Python'} ({s.reason})"


def build(native_dir: Path | None = None, source_dir: Path = HERE,
          out: Callable[[str], object] = print) -> float:
    """Compile the C core, and the hot modules where mypyc is installed, into `native_dir`;
    returns the seconds it took."""
    native_dir = native_dir or NATIVE_DIR
    try:
        import mypyc  # noqa: F401
        modules = True
    except ImportError:
        modules = False
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="navakankari-build-") as tmp:
        stage = Path(tmp)
        out(f"compiling {CORE_SOURCE}")
        built = [_compile_core(_core_sources(source_dir, stage / "core"), stage / CORE_LIBRARY)]
        if modules:
            built += _compile_modules(stage, source_dir, out)
        else:
            out("mypyc is not installed (pip install mypy, or the 'fast' extra): "
                "the C core only, the other hot modules stay Python")
        fresh = native_dir.with_name(native_dir.name + ".new")
        shutil.rmtree(fresh, ignore_errors=True)
        target = _module_dir(fresh)
        target.mkdir(parents=True)
        for path in built:
            shutil.copy2(path, (fresh if path.parent == stage else target) / path.name)
        (fresh / "DIGEST").write_text(source_digest(source_dir) + "\n")
        shutil.rmtree(native_dir, ignore_errors=True)
        fresh.rename(native_dir)
    seconds = time.monotonic() - started
    out(f"built {len(built)} files into {native_dir} in {seconds:.0f} s")
    return seconds


def _compile_modules(stage: Path, source_dir: Path, out: Callable[[str], object]) -> list[Path]:
    """The hot modules compiled with mypyc in `stage`: their files and the runtime's."""
    pkg = _module_dir(stage)
    pkg.mkdir(parents=True)
    # The package layout the modules are imported under, with every engine module so
    # that the type checker sees the ones that stay pure too.
    for parent in pkg.parents:
        if parent == stage:
            break
        (parent / "__init__.py").write_text("")
    for src in source_dir.glob("*.py"):
        if src.name != "__init__.py":
            shutil.copy2(src, pkg / src.name)
    (pkg / "__init__.py").write_text("")
    files = [str(pkg.relative_to(stage) / f"{name}.py") for name in COMPILED]
    out(f"compiling {', '.join(COMPILED)} with mypyc (about half a minute)")
    proc = subprocess.run([sys.executable, "-m", "mypyc", *files], cwd=stage,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise NativeBuildError(N_("mypyc failed (exit {code}):\n{output}"),
                               code=proc.returncode, output=tail)
    built = sorted(stage.glob("*__mypyc*")) + [
        p for name in COMPILED for p in pkg.glob(f"{name}.*") if p.suffix != ".py"]
    if len(built) < len(COMPILED) + 1:
        raise NativeBuildError.counted(Nn_("mypyc made {count} file, expected {expected}",
                                           "mypyc made {count} files, expected {expected}"),
                                       len(built), expected=len(COMPILED) + 1)
    return built


def _core_sources(source_dir: Path, folder: Path) -> Path:
    """core.c copied into `folder` with the header written from today's tables beside it, so
    the core is built with the Python engine's numbers whatever the sources' copy says."""
    from .core_header import HEADER, header

    folder.mkdir()
    shutil.copy2(source_dir / CORE_SOURCE, folder / CORE_SOURCE)
    (folder / HEADER).write_text(header())
    return folder / CORE_SOURCE


def _compile_core(source: Path, target: Path) -> Path:
    """The C core as a shared library, with the compiler Python itself was built with."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    proc = subprocess.run([*cc, "-O3", "-std=gnu11", "-Wall", "-shared", "-fPIC",
                           "-o", str(target), str(source)], capture_output=True, text=True)
    if proc.returncode != 0 or not target.is_file():
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        raise NativeBuildError(N_("the C core did not compile (exit {code}):\n{output}"),
                               code=proc.returncode, output=tail)
    return target

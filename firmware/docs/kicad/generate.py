"""Every buildable profile's circuit model as a KiCad 9 project under wiring/kicad/, checked
by KiCad's ERC and exported by kicad-cli (the PDF and SVG a maker reads, KiCad's netlist).

    python -m navakankari.firmware.docs.kicad            # rewrite wiring/kicad/
    python -m navakankari.firmware.docs.kicad --check    # exit 1 if a checked-in file is out of date

A project whose ERC finds anything (errors or warnings) is not written. kicad-cli stamps its
exports with the time and the file's path; those stamps are set to fixed values, so the same
model gives the same bytes.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from navakankari.wiring import PROFILE_DIR

from navakankari.hal.profile import load_profile, profile_names
from ..plate import is_buildable
from ..carrier import carrier_circuit
from ..circuit import Circuit
from ..generate import checked_circuits, kicad_stem, write_generated
from . import project
from .library import symbol_dir
from .project import KicadError, Violation

KICAD_DIR = PROFILE_DIR / "kicad"
BOARDS = ("direct-24-carrier", "mcp23017-24-carrier", "direct-19-carrier", "direct-spi-19-carrier",
          "matrix-24-carrier", "matrix-spi-24-carrier")
"""Every buildable profile's carrier board, laid out by `pcb.py`."""
FIXED_PDF_DATE = b"D:20260101000000"
BOARD_TIMEOUT_S = 900
"""Placing and routing a board by code: about 20 s of one core, minutes on a busy machine."""
JOBS = 3
"""kicad-cli runs at once: each is mostly one core for a few seconds."""


class ErcError(RuntimeError):
    """KiCad's ERC found violations in a generated schematic: its files are not written."""


@dataclass(frozen=True)
class Build:
    """One sensor build of a profile: the project's name (`stem`) and its circuit model."""

    profile: str
    stem: str
    circuit: Circuit


def builds() -> list[Build]:
    """Every sensor build of every buildable profile, named as the wiring tables are, and
    each profile's carrier board (`<profile>-carrier`)."""
    found = []
    for name in profile_names():
        profile = load_profile(name)
        if not is_buildable(profile):
            continue
        built = checked_circuits(profile, name)
        for i, c in enumerate(built):
            found.append(Build(name, kicad_stem(name, i, c), c))
        found.append(Build(name, f"{name}-carrier", carrier_circuit(built[0])))
    return found


def source_files(build: Build) -> dict[str, str]:
    """The project's own files (schematic, project, library tables, symbol library)."""
    comments = [f"Generated from {build.profile}.toml by python -m navakankari.firmware.docs.kicad; do not edit.",
                "Pins the model leaves unused carry a no-connect flag; every other pin is on a net."]
    return project.project_files(build.circuit, build.stem, comments)


def _normalise_netlist(text: str, stem: str, folder: Path) -> str:
    """The file's path and date fixed; library paths named by KiCad's variables, so the file
    is the same wherever the project and KiCad are."""
    text = text.replace(str(folder), "${KIPRJMOD}").replace(f"{symbol_dir()}/", "${KICAD9_SYMBOL_DIR}")
    text = re.sub(r'\(source "[^"]*"\)', f'(source "{stem}.kicad_sch")', text, count=1)
    return re.sub(r'\(date "[^"]*"\)', '(date "")', text, count=1)


def _normalise_svg(text: str) -> str:
    return re.sub(r"<title>SVG Image created as (\S+) date [^<]*</title>", r"<title>\1</title>", text, count=1)


def _normalise_pdf(data: bytes) -> bytes:
    """The creation time replaced by a fixed one of the same length (the xref offsets hold)."""
    return re.sub(rb"/CreationDate \(D:\d{14}", b"/CreationDate (" + FIXED_PDF_DATE, data, count=1)


@dataclass(frozen=True)
class Result:
    """A build's files (path under wiring/kicad/ -> bytes) and its ERC findings."""

    files: dict[str, bytes]
    violations: tuple[Violation, ...]


def make(build: Build) -> Result:
    """Write a build's project to a scratch folder, run KiCad's ERC, and export it."""
    sources = source_files(build)
    with tempfile.TemporaryDirectory(prefix=f"kicad-{build.stem}-") as tmp:
        folder = Path(tmp) / build.stem
        project.write(folder, sources)
        sch = folder / f"{build.stem}.kicad_sch"
        violations = project.erc(sch)
        files = {f"{build.stem}/{n}": t.encode("utf-8") for n, t in sources.items()}
        if violations:
            return Result(files, violations)
        project.export_netlist(sch, folder / f"{build.stem}.net")
        project.export_pdf(sch, folder / f"{build.stem}.pdf")
        project.export_svg(sch, folder / "svg")
        net = _normalise_netlist((folder / f"{build.stem}.net").read_text(encoding="utf-8"), build.stem, folder)
        files[f"{build.stem}/{build.stem}.net"] = net.encode("utf-8")
        files[f"{build.stem}/{build.stem}.pdf"] = _normalise_pdf((folder / f"{build.stem}.pdf").read_bytes())
        svg = _normalise_svg((folder / "svg" / f"{build.stem}.svg").read_text(encoding="utf-8"))
        files[f"{build.stem}/{build.stem}.svg"] = svg.encode("utf-8")
        if build.stem in BOARDS:
            board_violations = _board(folder, build, files)
            if board_violations:
                return Result(files, board_violations)
    return Result(files, ())


def _board(folder: Path, build: Build, files: dict[str, bytes]) -> tuple[Violation, ...]:
    """Place and route the carrier board (pcbnew, in its own process), check it against its
    schematic, and export what a board maker needs."""
    stem = build.stem
    pcb = folder / f"{stem}.kicad_pcb"
    done = subprocess.run([sys.executable, "-m", "navakankari.firmware.docs.kicad.pcb", str(pcb), build.profile],
                          capture_output=True, text=True, timeout=BOARD_TIMEOUT_S, check=False)
    if done.returncode != 0 or not pcb.exists():
        raise KicadError(f"the board generator failed: {done.stderr.strip()[-2000:]}")
    violations = project.drc(pcb)
    if violations:
        return violations
    project.export_fabrication(pcb, folder / f"{stem}.kicad_sch", folder / "fab")
    project.render(pcb, folder / f"{stem}-3d.png")
    files[f"{stem}/{stem}.kicad_pcb"] = pcb.read_bytes()
    files[f"{stem}/{stem}-3d.png"] = (folder / f"{stem}-3d.png").read_bytes()
    for path in sorted((folder / "fab").iterdir()):
        files[f"{stem}/fab/{path.name}"] = _normalise_dates(path.read_bytes())
    return ()


def _normalise_dates(data: bytes) -> bytes:
    """kicad-cli's time stamps in fabrication files set to a fixed time."""
    return re.sub(rb"\d{4}-\d{2}-\d{2}([T ])\d{2}:\d{2}:\d{2}", rb"2026-01-01\g<1>00:00:00", data)


def make_all(selected: Sequence[Build] | None = None) -> dict[str, Result]:
    """Every build made, `JOBS` at a time: stem -> result."""
    todo = list(selected if selected is not None else builds())
    with ThreadPoolExecutor(max_workers=JOBS) as pool:
        return dict(zip((b.stem for b in todo), pool.map(make, todo)))


def generated_files(results: dict[str, Result]) -> dict[str, bytes]:
    """All files of clean builds; raises ErcError naming every violation otherwise."""
    faults = [f"{stem}: {v.severity} {v.type}: {v.description} ({'; '.join(v.items)})"
              for stem, r in results.items() for v in r.violations]
    if faults:
        raise ErcError("\n".join(faults))
    return {name: data for r in results.values() for name, data in r.files.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m navakankari.firmware.docs.kicad",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=KICAD_DIR,
                        help=f"folder for the projects (default {KICAD_DIR})")
    parser.add_argument("--check", action="store_true", help="report stale files instead of writing")
    args = parser.parse_args(argv)
    try:
        files = generated_files(make_all())
    except (ErcError, KicadError) as exc:
        print(exc, file=sys.stderr)
        return 2
    return write_generated(files, args.out, check=args.check)


if __name__ == "__main__":
    sys.exit(main())

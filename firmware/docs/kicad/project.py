"""A circuit model as a KiCad 9 project folder: the schematic, the project file, the library
tables and the project's own symbol library; and KiCad's command line run on it (ERC, the
netlist, PDF and SVG exports)."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..circuit import Circuit
from . import sexpr
from .schematic import KICAD_NET_NAMES, schematic, units_of
from .sexpr import dump
from .symbols import PROJECT_LIBRARY, library_file

log = logging.getLogger(__name__)

KICAD_CLI_TIMEOUT_S = 120


class KicadError(RuntimeError):
    """kicad-cli is missing, failed or timed out."""


def kicad_cli() -> str:
    found = shutil.which("kicad-cli")
    if found is None:
        raise KicadError("kicad-cli is not installed (KiCad 9: on Debian 12 from bookworm-backports)")
    return found


def project_json(stem: str) -> str:
    """A minimal project file: KiCad fills in its defaults (the ERC's rules among them)."""
    return json.dumps({"meta": {"filename": f"{stem}.kicad_pro", "version": 3},
                       "schematic": {"legacy_lib_dir": "", "legacy_lib_list": []},
                       "sheets": [], "text_variables": {}}, indent=2) + "\n"


def lib_table(kind: str, names: Sequence[str], project_lib: bool) -> str:
    """A project sym-lib-table or fp-lib-table naming KiCad's libraries through KICAD9_*_DIR
    and, for symbols, the project's own library beside the schematic."""
    head = "sym_lib_table" if kind == "sym" else "fp_lib_table"
    var = "${KICAD9_SYMBOL_DIR}" if kind == "sym" else "${KICAD9_FOOTPRINT_DIR}"
    ext = "kicad_sym" if kind == "sym" else "pretty"
    lines = [f"({head}", "\t(version 7)"]
    if project_lib:
        lines.append(f'\t(lib (name "{PROJECT_LIBRARY}")(type "KiCad")(uri "${{KIPRJMOD}}/{PROJECT_LIBRARY}.{ext}")'
                     f'(options "")(descr "parts KiCad\'s library lacks, drawn from the model"))')
    for name in sorted(set(names)):
        lines.append(f'\t(lib (name "{name}")(type "KiCad")(uri "{var}/{name}.{ext}")(options "")(descr ""))')
    lines.append(")")
    return "\n".join(lines) + "\n"


def project_files(circuit: Circuit, stem: str, comments: list[str]) -> dict[str, str]:
    """File name -> content for the project `stem` of a circuit model."""
    units = units_of(circuit)
    symbols = {u.symbol.lib_id: u.symbol for us in units.values() for u in us}
    own = [s for lib_id, s in sorted(symbols.items()) if lib_id.startswith(PROJECT_LIBRARY + ":")]
    kicad_libs = [lib_id.partition(":")[0] for lib_id in symbols if not lib_id.startswith(PROJECT_LIBRARY + ":")]
    fp_libs = [p.footprint.partition(":")[0] for p in circuit.parts if p.footprint]
    return {
        f"{stem}.kicad_sch": schematic(circuit, stem, comments),
        f"{stem}.kicad_pro": project_json(stem),
        "sym-lib-table": lib_table("sym", kicad_libs + ["power"], bool(own)),
        "fp-lib-table": lib_table("fp", fp_libs, False),
        f"{PROJECT_LIBRARY}.kicad_sym": dump(library_file(own)) + "\n",
    }


def write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def run(args: Sequence[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """kicad-cli with `args`, its HOME a scratch folder so no user setting changes a result."""
    with tempfile.TemporaryDirectory(prefix="kicad-home-") as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("KICAD")}
        env.update(HOME=home, XDG_CONFIG_HOME=f"{home}/.config", XDG_CACHE_HOME=f"{home}/.cache")
        try:
            return subprocess.run([kicad_cli(), *args], cwd=cwd, env=env, capture_output=True, text=True,
                                  timeout=KICAD_CLI_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired as exc:
            raise KicadError(f"kicad-cli {' '.join(args[:2])} took over {KICAD_CLI_TIMEOUT_S} s") from exc


@dataclass(frozen=True)
class Violation:
    """One ERC or DRC finding: its type, severity and what KiCad said."""

    type: str
    severity: str
    description: str
    items: tuple[str, ...]


def read_report(path: Path) -> tuple[Violation, ...]:
    """The violations of a kicad-cli JSON report (ERC: per sheet; DRC: violations, unconnected
    items and schematic parity)."""
    text = path.read_text(encoding="utf-8")
    if len(text) > 20_000_000:
        raise KicadError(f"{path.name}: report too large")
    data = json.loads(text)
    found = []
    groups = [s.get("violations", []) for s in data.get("sheets", [])]
    groups += [data.get(k, []) for k in ("violations", "unconnected_items", "schematic_parity")]
    for group in groups:
        for v in group:
            found.append(Violation(str(v.get("type", "")), str(v.get("severity", "")),
                                   str(v.get("description", "")),
                                   tuple(str(i.get("description", "")) for i in v.get("items", []))))
    return tuple(found)


def erc(schematic_path: Path) -> tuple[Violation, ...]:
    """KiCad's electrical rules check of a schematic, every severity (warnings too)."""
    with tempfile.TemporaryDirectory(prefix="erc-") as tmp:
        report = Path(tmp) / "erc.json"
        done = run(["sch", "erc", "--format", "json", "--severity-all", "--output", str(report),
                    str(schematic_path)])
        if not report.exists():
            raise KicadError(f"kicad-cli sch erc failed ({done.returncode}): {done.stderr.strip()}")
        return read_report(report)


def export_netlist(schematic_path: Path, out: Path) -> None:
    _export(["sch", "export", "netlist", "--output", str(out), str(schematic_path)], out)


def export_pdf(schematic_path: Path, out: Path) -> None:
    _export(["sch", "export", "pdf", "--output", str(out), str(schematic_path)], out)


def export_svg(schematic_path: Path, out_dir: Path) -> None:
    _export(["sch", "export", "svg", "--output", str(out_dir), str(schematic_path)], out_dir)


def _export(args: list[str], out: Path) -> None:
    done = run(args)
    if done.returncode != 0 or not out.exists():
        raise KicadError(f"kicad-cli {' '.join(args[:3])} failed ({done.returncode}): {done.stderr.strip()}")


def netlist_nets(text: str) -> dict[str, frozenset[str]]:
    """The nets of a KiCad netlist (`kicad-cli sch export netlist`): name -> nodes `REF.PIN`,
    local label names without their sheet path ("/S_a7" -> "S_a7")."""
    tree = sexpr.parse(text)
    nets_node = sexpr.find(tree, "nets") or []
    found: dict[str, frozenset[str]] = {}
    for net in sexpr.find_all(nets_node, "net"):
        name = str((sexpr.find(net, "name") or ["name", ""])[1])
        nodes = frozenset(f"{(sexpr.find(n, 'ref') or ['', ''])[1]}.{(sexpr.find(n, 'pin') or ['', ''])[1]}"
                          for n in sexpr.find_all(net, "node"))
        found[name[1:] if name.startswith("/") else name] = nodes
    return found


def model_net_name(kicad_name: str) -> str:
    """The model's name of a KiCad net (+5V -> 5V)."""
    return {v: k for k, v in KICAD_NET_NAMES.items()}.get(kicad_name, kicad_name)


def drc(board_path: Path) -> tuple[Violation, ...]:
    """KiCad's design rules check of a board against its schematic (parity), every severity."""
    with tempfile.TemporaryDirectory(prefix="drc-") as tmp:
        report = Path(tmp) / "drc.json"
        done = run(["pcb", "drc", "--schematic-parity", "--format", "json", "--severity-all", "--output",
                    str(report), str(board_path)])
        if not report.exists():
            raise KicadError(f"kicad-cli pcb drc failed ({done.returncode}): {done.stderr.strip()}")
        return read_report(report)


GERBER_LAYERS = "F.Cu,B.Cu,F.Mask,B.Mask,F.Paste,F.Silkscreen,B.Silkscreen,Edge.Cuts"


def export_fabrication(board_path: Path, schematic_path: Path, out: Path) -> None:
    """Gerbers, drill file, placement (CSV) and bill of materials for ordering the board."""
    out.mkdir(parents=True, exist_ok=True)
    stem = board_path.stem
    _export(["pcb", "export", "gerbers", "--no-x2", "--layers", GERBER_LAYERS, "--output", f"{out}/",
             str(board_path)], out / f"{stem}-F_Cu.gtl")
    _export(["pcb", "export", "drill", "--output", f"{out}/", str(board_path)], out / f"{stem}.drl")
    _export(["pcb", "export", "pos", "--format", "csv", "--units", "mm", "--output", str(out / f"{stem}-pos.csv"),
             str(board_path)], out / f"{stem}-pos.csv")
    _export(["sch", "export", "bom", "--fields", "Reference,Value,Manufacturer,MPN,Description,Footprint,${QUANTITY}",
             "--labels", "Reference,Value,Manufacturer,Manufacturer part number,Description,Footprint,Quantity",
             "--group-by", "Value,Footprint",
             "--output", str(out / f"{stem}-bom.csv"), str(schematic_path)], out / f"{stem}-bom.csv")


def render(board_path: Path, out: Path) -> None:
    """A 3D picture of the board from above (no part models installed: pads and outlines)."""
    _export(["pcb", "render", "--output", str(out), "--width", "1200", "--height", "900", "--side", "top",
             "--quality", "basic", str(board_path)], out)

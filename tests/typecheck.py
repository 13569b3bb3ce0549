"""Type-checks the packages with mypy, as they are imported (`navakankari.engine`, ...).

The folders are mapped to `navakankari.*` by pyproject's package-dir, which mypy cannot
follow (the editable install's import hook is invisible to it, so every project import is
"not found"). This script lays a tree of links, `navakankari/<package> -> <folder>`, under
build/ and runs mypy there with the settings in pyproject's [tool.mypy]; the report names
the real files. Exit status: mypy's (0 clean, 1 problems found, 2 mypy itself failed).

    .venv/bin/python tests/typecheck.py              # every package
    .venv/bin/python tests/typecheck.py engine hal   # some of them
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP = "navakankari"


def package_dirs(root: Path = ROOT) -> dict[str, Path]:
    """pyproject's package-dir: the import name of each top package and its folder."""
    config = tomllib.loads((root / "pyproject.toml").read_text())
    mapping = config["tool"]["setuptools"]["package-dir"]
    return {name: (root / folder).resolve() for name, folder in mapping.items()}


def link_tree(into: Path, packages: dict[str, Path]) -> Path:
    """`into/navakankari/<name>` linked to each package's folder (made again each run)."""
    top = into / TOP
    top.mkdir(parents=True, exist_ok=True)
    # Only here, never in the package: with the namespace top, mypy takes a folder of data
    # files (online/club/) for the module of the same name beside it (online/club.py).
    (top / "__init__.py").write_text("")
    for name, folder in packages.items():
        link = top / name.removeprefix(TOP + ".")
        if link.is_symlink() and link.resolve() == folder:
            continue
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(folder, target_is_directory=True)
    return into


def run(packages: dict[str, Path], *, tree: Path, config: Path, cache: Path,
        ) -> subprocess.CompletedProcess[str]:
    """mypy over `packages` (import name -> folder), its report naming the real files."""
    link_tree(tree, packages)
    command = [sys.executable, "-m", "mypy", "--config-file", str(config),
               "--cache-dir", str(cache)]
    for name in packages:
        command += ["-p", name]
    proc = subprocess.run(command, cwd=tree, capture_output=True, text=True,
                          env={**os.environ, "MYPY_FORCE_COLOR": "0"})
    report = proc.stdout
    for name, folder in packages.items():
        linked = TOP + "/" + name.removeprefix(TOP + ".") + "/"
        try:
            shown = str(folder.relative_to(config.parent)) + "/"
        except ValueError:
            shown = str(folder) + "/"
        report = report.replace(linked, shown)
    return subprocess.CompletedProcess(proc.args, proc.returncode, report, proc.stderr)


def main(argv: list[str]) -> int:
    every = package_dirs()
    wanted = {name: folder for name, folder in every.items()
              if not argv or name.removeprefix(TOP + ".") in argv}
    unknown = set(argv) - {name.removeprefix(TOP + ".") for name in every}
    if unknown:
        print(f"no such package: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    proc = run(wanted, tree=ROOT / "build" / "typecheck", config=ROOT / "pyproject.toml",
               cache=ROOT / ".mypy_cache")
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""A small mutation run: plant one small bug at a time, run the focused tests, list survivors.

    .venv/bin/python tests/mutation/run.py               # every target (about 10 min, 2 cores)
    .venv/bin/python tests/mutation/run.py store --list  # the mutants of one target, not run
    .venv/bin/python tests/mutation/run.py engine -j 1   # one target, one worker

A mutant is one change to the syntax tree of one function named below: a comparison turned
(< <=, == !=, in / not in, is / is not), `and`/`or` swapped, a `not` dropped, a number increased or a
truth value turned, an arithmetic or bit operator swapped, or a statement deleted. It is put
in place of the real module by an import hook in a forked child (no file is changed), and the
target's focused tests run there with `-x`; a failure or a time-out kills it. The parent has
imported pytest and the libraries once, so a mutant costs only its tests. Survivors are
printed with the line and the change, and the exit status is the number of survivors.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import gc
import importlib.abc
import importlib.util
import os
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Target:
    module: str
    path: str
    functions: tuple[str, ...]  # qualified names: Class.method or function
    tests: tuple[str, ...]
    timeout: float


TARGETS = {
    "engine": Target(
        "navakankari.engine.morris", "engine/morris.py",
        ("MorrisGame._flies", "MorrisGame._takeable", "MorrisGame._terminal_by_count",
         "MorrisGame._generate", "MorrisGame.push", "MorrisGame._end_turn",
         "MorrisGame._no_action_outcome"),
        ("tests/engine/test_morris_rules.py", "tests/engine/test_perft.py",
         "tests/engine/test_rule_state.py"), 30),
    "tracker": Target(
        "navakankari.firmware.core.tracker", "firmware/core/tracker.py",
        ("Tracker._units", "Tracker._evaluate", "Tracker._prefix", "Tracker._push", "_lift",
         "_reach", "_diff_within", "_is_flight"),
        ("tests/firmware/test_tracker.py", "tests/firmware/test_tracker_presets.py",
         "tests/firmware/test_clearing.py", "tests/firmware/test_empty_board_traps.py"), 60),
    "store": Target(
        "navakankari.firmware.store.database", "firmware/store/database.py",
        ("Store._tx", "Store.new_game", "Store.append", "Store.truncate", "Store.finish",
         "Store.load", "Store.last_unfinished", "Store._event_statements"),
        ("tests/firmware/test_session.py", "tests/firmware/test_store_recovery.py"), 60),
    "session-store": Target(
        "navakankari.firmware.core.game_keeper", "firmware/core/game_keeper.py",
        ("GameKeeper.committed", "GameKeeper.finish", "GameKeeper.takeback_to"),
        ("tests/firmware/test_session.py", "tests/firmware/test_clearing.py"), 60),
    "companion": Target(
        "navakankari.firmware.companion.server", "firmware/companion/server.py",
        ("Companion._names", "Companion._errors", "Companion.static", "Companion._pin_refusal",
         "Companion._changing", "Companion.new_game", "Companion.takeback", "Companion.move"),
        ("tests/firmware/test_companion_guard.py", "tests/firmware/test_companion.py"), 90),
    "pin-throttle": Target(
        "navakankari.firmware.companion.pin_throttle", "firmware/companion/pin_throttle.py",
        ("PinThrottle._bucket", "PinThrottle.wait", "PinThrottle.wrong"),
        ("tests/firmware/test_companion_guard.py",), 60),
    "web-names": Target(
        "navakankari.firmware.companion.names", "firmware/companion/names.py",
        ("own_names", "_norm", "host_name", "origin_name", "allowed"),
        ("tests/firmware/test_companion_guard.py",), 60),
}


# -- mutants -----------------------------------------------------------------------------------
SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
            ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot,
            ast.IsNot: ast.Is}
SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr,
            ast.BitXor: ast.BitOr, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
            ast.LShift: ast.RShift, ast.RShift: ast.LShift}


@dataclass(frozen=True)
class Mutant:
    target: str
    index: int
    line: int
    function: str
    change: str


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{node.name}.{item.name}", item


def _changes(node: ast.AST) -> Iterator[tuple[str, callable]]:  # type: ignore[valid-type]
    """(description, apply) for each single change of this node."""
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            if type(op) in SWAP_CMP:
                new = SWAP_CMP[type(op)]

                def apply(n, k=k, new=new):  # type: ignore[no-untyped-def]
                    n.ops[k] = new()
                yield f"{type(op).__name__} -> {new.__name__}", apply
    elif isinstance(node, ast.BoolOp):
        other = ast.Or if isinstance(node.op, ast.And) else ast.And
        yield f"{type(node.op).__name__} -> {other.__name__}", lambda n, o=other: setattr(n, "op", o())
    elif isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
        new = SWAP_BIN[type(node.op)]
        yield f"{type(node.op).__name__} -> {new.__name__}", lambda n, o=new: setattr(n, "op", o())
    elif isinstance(node, ast.AugAssign) and type(node.op) in SWAP_BIN:
        new = SWAP_BIN[type(node.op)]
        yield f"{type(node.op).__name__}= -> {new.__name__}=", lambda n, o=new: setattr(n, "op", o())
    elif isinstance(node, ast.Constant) and type(node.value) in (bool, int):
        if isinstance(node.value, bool):
            yield f"{node.value} -> {not node.value}", lambda n: setattr(n, "value", not n.value)
        else:
            yield f"{node.value} -> {node.value + 1}", lambda n: setattr(n, "value", n.value + 1)


def _unary_not(parent: ast.AST) -> Iterator[tuple[str, str, callable]]:  # type: ignore[valid-type]
    for field, value in ast.iter_fields(parent):
        if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not):
            yield field, "not dropped", lambda p, f=field: setattr(p, f, getattr(p, f).operand)


def _is_log_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "log")


def _statement_lists(node: ast.AST) -> Iterator[tuple[str, list]]:
    for field in ("body", "orelse", "finalbody"):
        stmts = getattr(node, field, None)
        if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
            yield field, stmts


def mutants_of(name: str, target: Target) -> tuple[str, list[tuple[Mutant, "_Recipe"]]]:
    source = (ROOT / target.path).read_text()
    tree = ast.parse(source)
    wanted = set(target.functions)
    found = {n for n, _ in _functions(tree)}
    missing = wanted - found
    if missing:
        raise SystemExit(f"{target.path}: no function {', '.join(sorted(missing))}")
    out: list[tuple[Mutant, ast.Module]] = []

    def add(line: int, func: str, change: str, mutate) -> None:  # type: ignore[no-untyped-def]
        out.append((Mutant(name, len(out), line, func, change), mutate))

    # Walk the selected functions; record (path to node, change) so each mutant is made on a
    # fresh copy of the tree.
    for func, fnode in _functions(tree):
        if func not in wanted:
            continue
        annotations = {id(n) for a in ast.walk(fnode)
                       for field in ("returns", "annotation") if getattr(a, field, None)
                       for n in ast.walk(getattr(a, field))}  # never evaluated: no mutants
        for node in ast.walk(fnode):
            if id(node) in annotations:
                continue
            path = _path_to(fnode, node)
            for change, apply in _changes(node):
                add(node.lineno, func, change, (func, path, "node", apply))
            for _field, change, apply in _unary_not(node):
                add(node.lineno, func, change, (func, path, "node", apply))
            for field, stmts in _statement_lists(node):
                if node is fnode and len(stmts) == 1:
                    continue
                for k, stmt in enumerate(stmts):
                    if isinstance(stmt, (ast.Pass, ast.FunctionDef, ast.AsyncFunctionDef)) or (
                            isinstance(stmt, ast.Expr) and (isinstance(stmt.value, ast.Constant)
                                                            or _is_log_call(stmt.value))):
                        continue  # docstrings, nested definitions, log lines
                    first = ast.unparse(stmt).splitlines()[0][:50]
                    add(stmt.lineno, func, f"deleted: {first}",
                        (func, path, "delete", (field, k)))
    return source, [(mutant, _Recipe(target.path, *recipe)) for mutant, recipe in out]


@dataclass(frozen=True)
class _Recipe:
    """How to make one mutant's tree (made in the child: the parent keeps no copies)."""

    path: str
    func: str
    steps: tuple
    how: str
    what: Any

    def tree(self) -> ast.Module:
        fresh = ast.parse((ROOT / self.path).read_text())
        node = _follow(dict(_functions(fresh))[self.func], self.steps)
        if self.how == "node":
            self.what(node)
        else:
            field, k = self.what
            getattr(node, field)[k] = ast.Pass()
        return ast.fix_missing_locations(fresh)


def _path_to(root: ast.AST, target: ast.AST) -> tuple:
    """Field/index steps from root to target."""
    stack = [(root, ())]
    while stack:
        node, path = stack.pop()
        if node is target:
            return path
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.AST):
                stack.append((value, path + ((field, None),)))
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        stack.append((item, path + ((field, i),)))
    raise LookupError("node not found")


def _follow(root: ast.AST, path: tuple) -> ast.AST:
    node = root
    for field, i in path:
        node = getattr(node, field) if i is None else getattr(node, field)[i]
    return node


# -- running -----------------------------------------------------------------------------------
class _Replace(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves the mutated code for one module name."""

    def __init__(self, module: str, code, origin: str) -> None:  # type: ignore[no-untyped-def]
        self.module, self.code, self.origin = module, code, origin

    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if name != self.module:
            return None
        return importlib.util.spec_from_loader(name, self, origin=self.origin)

    def create_module(self, spec):  # type: ignore[no-untyped-def]
        return None

    def exec_module(self, module):  # type: ignore[no-untyped-def]
        module.__file__ = self.origin
        exec(self.code, module.__dict__)


def _child(target: Target, recipe: "_Recipe") -> int:
    import pytest

    tree = recipe.tree()
    for name in [m for m in sys.modules if m == "navakankari" or m.startswith("navakankari.")]:
        del sys.modules[name]
    code = compile(tree, str(ROOT / target.path), "exec")
    sys.meta_path.insert(0, _Replace(target.module, code, str(ROOT / target.path)))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    return int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                            *target.tests]))


def run(jobs: int, work: list[tuple[Mutant, "_Recipe"]]) -> list[tuple[Mutant, str]]:
    os.chdir(ROOT)
    results: list[tuple[Mutant, str]] = []
    running: dict[int, tuple[Mutant, float]] = {}
    queue = list(work)
    while queue or running:
        while queue and len(running) < jobs:
            mutant, recipe = queue.pop(0)
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    code = _child(TARGETS[mutant.target], recipe)
                finally:
                    os._exit(code)
            running[pid] = (mutant, time.monotonic())
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            time.sleep(0.05)
            for p, (mutant, started) in list(running.items()):
                if time.monotonic() - started > TARGETS[mutant.target].timeout:
                    os.kill(p, signal.SIGKILL)
            continue
        mutant, started = running.pop(pid)
        if os.WIFSIGNALED(status):
            verdict = "killed (time-out)"
        elif os.WEXITSTATUS(status) == 0:
            verdict = "SURVIVED"
        elif os.WEXITSTATUS(status) == 1:
            verdict = "killed"
        else:
            verdict = f"error (pytest exit {os.WEXITSTATUS(status)})"
        results.append((mutant, verdict))
        print(f"{verdict:18} {mutant.target}:{mutant.index} {TARGETS[mutant.target].path}:"
              f"{mutant.line} {mutant.function}: {mutant.change}  ({time.monotonic() - started:.1f} s)",
              flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", help=f"of {', '.join(TARGETS)} (default: all)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--only", type=int, nargs="*", help="run these mutant numbers only")
    parser.add_argument("--tests", nargs="+", help="run these tests instead of the focused ones "
                        "(to see whether the rest of the suite catches a survivor)")
    args = parser.parse_args(argv)
    names = args.targets or list(TARGETS)
    if args.tests:
        for name in names:
            TARGETS[name] = dataclasses.replace(TARGETS[name], tests=tuple(args.tests))
    unknown = set(names) - set(TARGETS)
    if unknown:
        parser.error(f"no target {', '.join(sorted(unknown))}; choose from {', '.join(TARGETS)}")
    work = []
    for name in names:
        _, made = mutants_of(name, TARGETS[name])
        if args.only is not None:
            made = [m for m in made if m[0].index in args.only]
        work += made
    if args.list:
        for mutant, _ in work:
            print(f"{mutant.target}:{mutant.index} {TARGETS[mutant.target].path}:{mutant.line} "
                  f"{mutant.function}: {mutant.change}")
        return 0
    import aiohttp  # noqa: F401  - imported once here, not in every child
    import hypothesis  # noqa: F401
    import pytest  # noqa: F401

    gc.collect()
    gc.freeze()  # children share the parent's objects without copying their pages
    started = time.monotonic()
    results = run(args.jobs, work)
    survivors = [(m, v) for m, v in results if v == "SURVIVED" or v.startswith("error")]
    print(f"\n{len(results)} mutants, {len(results) - len(survivors)} killed, "
          f"{len(survivors)} survived or errored, {time.monotonic() - started:.0f} s")
    for mutant, verdict in sorted(survivors, key=lambda x: (x[0].target, x[0].index)):
        print(f"  {verdict}: {mutant.target}:{mutant.index} {TARGETS[mutant.target].path}:"
              f"{mutant.line} {mutant.function}: {mutant.change}")
    return min(len(survivors), 100)


if __name__ == "__main__":
    sys.exit(main())

"""KiCad's S-expression files (symbols, schematics, netlists, reports): a bounded parser and a
writer in KiCad's own layout, so a file we generate reads like one KiCad saved.

Quoted strings parse to `Text` and bare atoms to `str`, so writing a parsed tree back keeps
every quote where it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Union

MAX_CHARS = 64_000_000
"""Larger input is refused: KiCad's biggest symbol library is about 4 MB."""

MAX_DEPTH = 200


class Text(str):
    """A quoted string (a bare atom is a plain str)."""


Node = Union[str, list["Node"]]


class SexprError(ValueError):
    """The text is not one well-formed S-expression within our bounds."""


def _tokens(text: str) -> Iterator[str | Text]:
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n":
            i += 1
        elif c in "()":
            yield c
            i += 1
        elif c == '"':
            j, out = i + 1, []
            while True:
                if j >= n:
                    raise SexprError("unterminated string")
                d = text[j]
                if d == "\\" and j + 1 < n:
                    out.append({"n": "\n", "t": "\t"}.get(text[j + 1], text[j + 1]))
                    j += 2
                elif d == '"':
                    break
                else:
                    out.append(d)
                    j += 1
            yield Text("".join(out))
            i = j + 1
        else:
            j = i
            while j < n and text[j] not in ' \t\r\n()"':
                j += 1
            yield text[i:j]
            i = j


def parse(text: str) -> list[Node]:
    """The one top-level list in `text`; raises SexprError on anything else."""
    if len(text) > MAX_CHARS:
        raise SexprError(f"{len(text)} characters: more than {MAX_CHARS}")
    stack: list[list[Node]] = []
    result: list[Node] | None = None
    for tok in _tokens(text):
        if result is not None:
            raise SexprError("text after the top-level list")
        if tok == "(" and not isinstance(tok, Text):
            if len(stack) >= MAX_DEPTH:
                raise SexprError("nested too deeply")
            stack.append([])
        elif tok == ")" and not isinstance(tok, Text):
            if not stack:
                raise SexprError("unbalanced )")
            done = stack.pop()
            if stack:
                stack[-1].append(done)
            else:
                result = done
        elif not stack:
            raise SexprError("atom outside a list")
        else:
            stack[-1].append(tok)
    if stack or result is None:
        raise SexprError("unbalanced (")
    return result


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _atom(a: str) -> str:
    return quote(a) if isinstance(a, Text) else a


def dump(node: Node, depth: int = 0) -> str:
    """KiCad's layout: a list of atoms on one line; a list holding lists breaks each onto its
    own line, indented by tabs, the closing parenthesis on a line of its own."""
    if isinstance(node, str):
        return _atom(node)
    if not any(isinstance(x, list) for x in node):
        return "(" + " ".join(_atom(x) for x in node) + ")"  # type: ignore[arg-type]
    pad = "\t" * (depth + 1)
    head = []
    rest = list(node)
    while rest and isinstance(rest[0], str):
        atom = rest.pop(0)
        assert isinstance(atom, str)
        head.append(_atom(atom))
    lines = ["(" + " ".join(head)]
    for x in rest:
        lines.append(pad + dump(x, depth + 1))
    lines.append("\t" * depth + ")")
    return "\n".join(lines)


def find(node: Node, key: str) -> list[Node] | None:
    """The first child list of `node` whose head is `key`."""
    if isinstance(node, list):
        for x in node:
            if isinstance(x, list) and x and x[0] == key:
                return x
    return None


def find_all(node: Node, key: str) -> list[list[Node]]:
    """Every child list of `node` whose head is `key`."""
    return [x for x in node if isinstance(x, list) and x and x[0] == key] if isinstance(node, list) else []


def walk(node: Node, key: str) -> Iterator[list[Node]]:
    """Every list anywhere under `node` whose head is `key`."""
    if isinstance(node, list):
        if node and node[0] == key:
            yield node
        for x in node:
            yield from walk(x, key)

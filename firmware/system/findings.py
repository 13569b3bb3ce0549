"""What `navakankari doctor` found, and how it is told: one line a check, and the config.txt
lines that put the findings right."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from navakankari.engine.translator import ENGLISH, Translator


@dataclass(frozen=True)
class Finding:
    """One check: `ok`, or what is wrong (`message`) and what to do (`fix`); `lines` are
    config.txt lines that put it right; a `note` does not stop the board."""

    check: str
    ok: bool
    message: str
    fix: str = ""
    lines: tuple[str, ...] = ()
    note: bool = False

    @property
    def blocking(self) -> bool:
        return not self.ok and not self.note


def report(findings: list[Finding], out: Callable[[str], None] = print,
           tr: Translator = ENGLISH) -> None:
    """The findings, one a line, in `tr`'s language; the mark (ok, note, PROBLEM) and the
    check's name stay as they are, a column a script may read in any language."""
    for f in findings:
        mark = "ok     " if f.ok else ("note   " if f.note else "PROBLEM")
        fix = "\n          " + tr.gettext("fix: {fix}").format(fix=f.fix) \
            if not f.ok and f.fix else ""
        out(f"{mark} {f.check}: {f.message}{fix}")
    blocking = sum(f.blocking for f in findings)
    out(tr.ngettext("{n} problem would stop the board.", "{n} problems would stop the board.",
                    blocking).format(n=blocking) if blocking
        else tr.gettext("Nothing would stop the board."))


def fix_lines(findings: list[Finding]) -> list[str]:
    """The config.txt lines that put the findings right, under [all] so they apply."""
    lines = list(dict.fromkeys(line for f in findings if not f.ok for line in f.lines))
    return ["[all]", *lines] if lines else []


def report_fix_lines(findings: list[Finding], out: Callable[[str], None] = print,
                     say: Callable[[str], None] = print, tr: Translator = ENGLISH) -> None:
    """`doctor --fix-lines`: the lines alone on `out` (to append to config.txt), and on `say`
    what they leave unfixed, so an empty answer is never silent."""
    lines = fix_lines(findings)
    for line in lines:
        out(line)
    left = [f for f in findings if f.blocking and not f.lines]
    if not lines:
        say(tr.gettext("navakankari doctor: no config.txt line to add, and these problems are "
                       "left:") if left else
            tr.gettext("navakankari doctor: no config.txt line to add"))
    elif left:
        say(tr.gettext("navakankari doctor: these lines do not put right:"))
    for f in left:
        say(f"  {f.check}: {f.message}" + (" " + tr.gettext("(fix: {fix})").format(fix=f.fix)
                                           if f.fix else ""))


"""Named rule sets: the games this board plays, each with the source it follows."""

from __future__ import annotations

from .errors import UnknownVariantError
from .translator import N_
from .rules import AllInMills, BoardFull, Flying, NoCaptureEnd, Removals, Rules

NAVAKANKARI = Rules(
    name="navakankari",
    pieces=9,
    flying=Flying.NONE,
    removals=Removals.ONE_PER_MILL,
    all_in_mills=AllInMills.NONE,
    mill_capture_limit=3,
)
"""Navakankari as the Indian rule texts give it: nine pebbles, no flying, one pebble taken
for every mill closed (two mills at once take two), pebbles standing in mills are safe even
when all are in mills, and one mill takes at most three times (rule 17 of those texts: "made
once, remade twice", so every formation counts, also one that could take nothing). The
texts name no draw; without one a game in which neither side can close a mill again never
ends (nobody flies, so such shuffles are common), and the board, the store and the computer
need an end. The house rule is the standard game's, as Sanmill plays it: the third
occurrence of a position reached by a move, or 100 moves in a row without a pebble taken, draws."""

NAVAKANKARI_STRICT = NAVAKANKARI.replace(name="navakankari-strict", mill_capture_limit=1)
"""The "strict" Navakankari of the same texts: a given mill takes only once (as Sanmill's
Russian mill); draws as in navakankari (a house rule: the texts name none)."""

NAVAKANKARI_FLYING = NAVAKANKARI.replace(name="navakankari-flying", flying=Flying.BOTH)
"""Navakankari with one rule text's optional third phase: once a side is down to three pebbles,
both sides fly (move a pebble to any empty point). Otherwise as navakankari, draws included."""

NINE_MENS_MORRIS = Rules(name="nine-mens-morris")
"""Standard Nine Men's Morris as Sanmill's rule 0 and the World Mill Sport Federation play
it: flying at three, one pebble taken per move even when two mills close, pebbles in mills
safe unless all are, a re-formed mill takes again, threefold repetition and 100 moves without
a pebble taken draw."""

TWELVE_MENS_MORRIS = Rules(
    name="twelve-mens-morris", board="morris-diagonal", pieces=12, board_full=BoardFull.DRAW)
"""Twelve Men's Morris: twelve pebbles on the board with the four corner diagonals (lines for
movement and mills); a board filled during placement is a draw (as Wikipedia and Sanmill's
default describe it)."""

MORABARABA = Rules(
    name="morabaraba", board="morris-diagonal", pieces=12, no_immediate_reform=True,
    board_full=BoardFull.DRAW)
"""Morabaraba as the Mind Sports South Africa rules play it: twelve cows, diagonals, flying
at three, cows in mills safe unless all are, and a mill broken and re-formed by moving the
same cow straight back does not shoot."""

LASKER = Rules(name="lasker", pieces=10, move_in_placement=True)
"""Lasker Morris (Emanuel Lasker's variant): ten pebbles each, and a side may move a pebble
on the board instead of placing one from the hand; otherwise standard."""

SIX_MENS_MORRIS = Rules(name="six-mens-morris", board="six", pieces=6, flying=Flying.NONE)
"""Six Men's Morris on the inner sixteen points: six pebbles, mills only along the sides of
the two squares, no flying; a side reduced to two pebbles loses."""

NAU_KETI_KETA = Rules(
    name="nau-keti-keta", board="lau-kata-kati", game="jump", pieces=9, flying=Flying.NONE,
    lose_below=1, capture_compulsory=True, multi_jump=True, huffing=False,
    repetition_draw=3, quiet_move_limit=40, no_capture_end=NoCaptureEnd.DRAW)
"""Nau Keti Keta (Lau kata kati, Bengal): nine pebbles each filling its own triangle, the
apex empty; steps along lines, a neighbour taken by jumping it to the empty point straight
behind, several jumps in one turn (straight within a jump, turning between jumps). Taking
is compulsory and a chain of jumps must be finished; no huffing. Taking every pebble or leaving the
opponent without a move wins; forty moves without a pebble taken (or a threefold repetition)
end the game as a draw."""

PRESETS: dict[str, Rules] = {
    r.name: r for r in (NAVAKANKARI, NAVAKANKARI_STRICT, NAVAKANKARI_FLYING, NINE_MENS_MORRIS,
                        TWELVE_MENS_MORRIS, MORABARABA, LASKER, SIX_MENS_MORRIS, NAU_KETI_KETA)
}

def preset(name: str) -> Rules:
    """The rule set of a named variant; the error lists the names there are."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownVariantError(N_("unknown variant {name}; variants: {variants}"),
                                  name=repr(name), variants=", ".join(PRESETS)) from None


def describe(name: str) -> str:
    """One paragraph on where a preset's rules come from (read from this module's source)."""
    return _docs().get(name, "")


def _docs() -> dict[str, str]:
    import ast
    import inspect
    import sys

    tree = ast.parse(inspect.getsource(sys.modules[__name__]))
    out: dict[str, str] = {}
    body = tree.body
    for node, nxt in zip(body, body[1:]):
        if (isinstance(node, ast.Assign) and isinstance(nxt, ast.Expr)
                and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str)):
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id in globals():
                rules = globals()[target.id]
                if isinstance(rules, Rules):
                    out[rules.name] = " ".join(nxt.value.value.split())
    return out

"""An independent judge of a morris game record, for the tracker's fuzz tests and
`navakankari bench fuzz`.

It knows the boards only as the lines written below (from the design notes) and the rules only
as the few options it reads, and judges each action from the pebbles on the points, so a
tracker that commits an illegal action is caught without asking the engine that it took its
actions from. It checks what every legal action must satisfy (not every rule: a mill's
capture limit may skip a removal it would allow).
"""

from __future__ import annotations

import re

from navakankari.engine.rules import AllInMills, Flying, Removals, Rules
from navakankari.engine.variants import new_game

MORRIS_MILLS = ("a7 d7 g7, b6 d6 f6, c5 d5 e5, a4 b4 c4, e4 f4 g4, c3 d3 e3, b2 d2 f2, a1 d1 g1, "
                "a7 a4 a1, b6 b4 b2, c5 c4 c3, d7 d6 d5, d3 d2 d1, e5 e4 e3, f6 f4 f2, g7 g4 g1")
SIX_MILLS = "b6 d6 f6, c5 d5 e5, c3 d3 e3, b2 d2 f2, b6 b4 b2, c5 c4 c3, e5 e4 e3, f6 f4 f2"
SIX_SPOKES = "d6 d5, b4 c4, e4 f4, d2 d3"
BOARDS = {  # board name -> (mills, lines that are not mills)
    "morris": (MORRIS_MILLS, ""),
    "six": (SIX_MILLS, SIX_SPOKES),
}
TOKEN = re.compile(r"^(?:([a-g][1-7])|([a-g][1-7])-([a-g][1-7])|x([a-g][1-7]))$")


def _lines(text: str) -> list[tuple[str, ...]]:
    return [tuple(line.split()) for line in text.split(",") if line.strip()]


class Referee:
    """Plays a record on its own board; `judge(text)` raises AssertionError on a wrong action."""

    def __init__(self, rules: Rules) -> None:
        mills, spokes = BOARDS[rules.board]
        self.rules = rules
        self.mills = _lines(mills)
        self.adjacent: set[frozenset[str]] = set()
        for line in self.mills + _lines(spokes):
            self.adjacent |= {frozenset(pair) for pair in zip(line, line[1:])}
        self.colour: dict[str, int] = {}  # point -> side (0 white, 1 black)
        self.placed = [0, 0]
        self.side = 0
        self.removals_owed = 0

    def count(self, side: int) -> int:
        return sum(1 for s in self.colour.values() if s == side)

    def _in_mill(self, point: str, side: int) -> bool:
        return any(point in m and all(self.colour.get(p) == side for p in m) for m in self.mills)

    def _any_takeable(self, side: int) -> bool:
        """Has `side` a pebble the opponent may take?"""
        mine = [p for p, s in self.colour.items() if s == side]
        free = [p for p in mine if not self._in_mill(p, side)]
        return bool(free) or (bool(mine) and self.rules.all_in_mills is AllInMills.ANY)

    def _flies(self, side: int) -> bool:
        rules = self.rules
        if rules.flying is Flying.NONE or self.placed[side] < rules.pieces:
            return False
        return self.count(side) <= rules.fly_threshold or (
            rules.flying is Flying.BOTH and self.count(side ^ 1) <= rules.fly_threshold)

    def judge(self, text: str) -> None:
        m = TOKEN.match(text)
        assert m, f"{text}: not a morris action"
        place, origin, target, taken = m.groups()
        side, rules = self.side, self.rules
        if taken:
            assert self.removals_owed, f"{text}: a removal with no mill closed"
            assert self.colour.get(taken) == side ^ 1, f"{text}: not an opposing pebble"
            if self._in_mill(taken, side ^ 1):
                everything = all(self._in_mill(p, side ^ 1) for p, s in self.colour.items()
                                 if s == side ^ 1)
                assert everything and rules.all_in_mills is AllInMills.ANY, \
                    f"{text}: the pebble stands in a mill"
            del self.colour[taken]
            self.removals_owed -= 1
            if not self.removals_owed:
                self.side ^= 1
            return
        if self.removals_owed:  # nothing to take, or a mill past its capture limit
            assert (not self._any_takeable(side ^ 1) or rules.mill_capture_limit is not None
                    or rules.no_immediate_reform), f"{text}: a removal was owed"
            self.removals_owed = 0
            self.side = side = side ^ 1
        if place:
            assert self.placed[side] < rules.pieces, f"{text}: no pebble left in hand"
            assert place not in self.colour, f"{text}: the point is taken"
            self.colour[place] = side
            self.placed[side] += 1
            dest = place
        else:
            assert self.colour.get(origin) == side, f"{text}: not the mover's pebble"
            assert target not in self.colour, f"{text}: the point is taken"
            assert self.placed[side] == rules.pieces or rules.move_in_placement, \
                f"{text}: a move during placement"
            assert frozenset((origin, target)) in self.adjacent or self._flies(side), \
                f"{text}: not along a line"
            del self.colour[origin]
            self.colour[target] = side
            dest = target
        closed = sum(1 for mill in self.mills
                     if dest in mill and all(self.colour.get(p) == side for p in mill))
        if closed:
            self.removals_owed = closed if rules.removals is Removals.ONE_PER_MILL else 1
        else:
            self.side ^= 1

    def judge_record(self, record: str) -> None:
        for text in record.split():
            self.judge(text)


def judge_record(rules: Rules, record: str) -> None:
    """Every action of `record` was legal where it was played: judged by the referee on its
    own board for the morris games, by the engine's rules replayed for Nau Keti Keta (whose
    board the referee does not know). Raises AssertionError, or RulesError from the replay."""
    if rules.board in BOARDS:
        Referee(rules).judge_record(record)
    else:
        new_game(rules).play_record(record)

"""The numbers and orders the C core (core.c) shares with the Python engine, kept once.

core.c reads them from a header that `navakankari build-engine` writes from this module
(core_header.py), and search.py, evaluate.py and core.py take theirs from here, so the two
sides cannot drift apart. Standard library only and no other engine module: native.py and
core.py read it, and search.py imports core.py, so it cannot live in search.py.
"""

from __future__ import annotations

from typing import Final

#: Beyond every evaluation: the search's window.
INF: Final = 10_000_000
#: A won position, less the plies to the win.
WIN: Final = 1_000_000
#: Scores beyond this are wins or losses found by the search (WIN minus the plies to it).
MATE_BOUND: Final = WIN - 10_000
#: A side that has lost by the count or cannot move, seen at a leaf without a move generation.
LOST: Final = 20_000
#: A pebble, in the evaluation's centi-pebbles.
PIECE: Final = 100
#: An endgame database lookup that holds nothing.
NO_RESULT: Final = -1_000_000

#: What a table entry's score is: exact, at least (failed high) or at most (failed low).
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2

#: The largest board (points), its mills, a point's mills, and a mill's capture limit.
MAX_POINTS: Final = 32
MAX_MILLS: Final = 32
MAX_MILLS_AT: Final = 4
MAX_CAPTURE_LIMIT: Final = 15
#: The legal actions of one position the core lists at most.
MAX_ACTIONS: Final = 1024

#: The flying rule's values (rules.Flying), in the numbering the core is sent.
FLYING: Final = ("none", "self", "both")
#: The rule set as the core is sent it: one integer each, in this order (core.py's flags).
RULE_FLAGS: Final = (
    "pieces", "flying", "threshold", "per_mill", "all_any", "mip", "lose_below",
    "blocked_loses", "full_first_loses", "rep_draw", "quiet_limit", "tables", "limit",
    "reform",
)

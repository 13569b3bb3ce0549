"""Notation: action strings and position strings, each with a parser that says what is wrong.

Actions: placement `d6`, move `a1-a4`, removal `xd7` (a combined `a1-a4xd7` is accepted on
input), Nau Keti Keta capture chain `d5xd3xf1`. Morris positions use Sanmill's FEN-like
string so positions move between this board and the most used open-source mill program.

A morris position string carries the whole rule state. Its 17 fields are Sanmill's:

    rings side phase action  white-on white-hand black-on black-hand
    white-removals black-removals  white-from white-to black-from black-to  mills
    quiet-moves move-number

Fields 11-14 are Sanmill's "last mill" squares (its square numbers: inner ring 8-15,
middle 16-23, outer 24-31, each from 12 o'clock clockwise; 0 for none). Under a rule that
forbids capturing by moving a pebble out of a mill and straight back (`no_immediate_reform`,
Morabaraba) they hold, per side, the last move that broke a mill, the one move that may not
re-form it to capture. Field 15 is Sanmill's formed-mills mask: the points of every mill a
side has formed (white's bits shifted up 32), written under a mill capture limit.

Sanmill has no field for how often each mill has captured (the Navakankari limit of three),
so an extension of our own follows field 17 when any mill has formed under a limit:

    mills:a7-d7-g7=w2,d1-d2-d3=w1b3

each mill by its points, then each side's count (w white, b black; a side with none left
out). Sanmill skips a trailing token whose second character is not ':', so it reads these
strings. Where the extension is absent, field 15 gives each mill it covers a count of one.
Nau Keti Keta has a string of its own (see jump_to_text).

A position string reads into a plain record (`MorrisPosition`, `JumpPosition`) and is
written from one; the game classes build themselves from a record and give theirs, so
this module knows no game class and the engine's imports run one way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .actions import ActionKind
from .boards import BOARDS, Board
from .errors import InvalidNotationError, Wording
from .rules import Rules
from .translator import N_, Nn_

Move = tuple[int, int]


@dataclass(frozen=True)
class ParsedAction:
    """The shape of an action read from text, before the rules are asked about it."""

    kind: ActionKind
    points: tuple[int, ...]


@dataclass(frozen=True)
class MorrisPosition:
    """A morris position as its string holds it: point masks, pebbles in hand, the side to
    act and its pending removals, the quiet-move count and move number, each mill's capture
    counts by mill number, and each side's remembered mill-breaking move."""

    white: int
    black: int
    hand: tuple[int, int]
    side: int
    pending: int = 0
    quiet: int = 0
    fullmove: int = 1
    mill_counts: dict[int, tuple[int, int]] = field(default_factory=dict)
    remembered: tuple[Move | None, Move | None] = (None, None)


@dataclass(frozen=True)
class JumpPosition:
    """A Nau Keti Keta position as its string holds it; `huff` is the mask of pebbles that
    may be huffed (taken for a capture they failed to make)."""

    white: int
    black: int
    side: int
    quiet: int = 0
    fullmove: int = 1
    huff: int = 0


def _point(board: Board, name: str, text: str) -> int:
    if not name:
        raise InvalidNotationError(N_("{text}: a point name is missing"), text=repr(text))
    if not board.has_point(name):
        where = f"{name!r}" if name == text else f"{text!r}: {name!r}"
        if board.has_point(name.lower()):
            raise InvalidNotationError(N_("{name} is not a point of the {board} board (point "
                                          "names are lower case: {lower})"),
                                       name=where, board=board.name, lower=name.lower())
        raise InvalidNotationError(N_("{name} is not a point of the {board} board"), name=where,
                                   board=board.name)
    return board.index(name)


def parse_morris_action(board: Board, text: str) -> ParsedAction:
    """`d6`, `a1-a4` or `xd7` on a morris board."""
    if text.startswith("x"):
        return ParsedAction(ActionKind.REMOVE, (_point(board, text[1:], text),))
    if "-" in text:
        a, _, b = text.partition("-")
        if "-" in b:
            raise InvalidNotationError(N_("{text}: a move names exactly two points, a-b"),
                                       text=repr(text))
        return ParsedAction(ActionKind.MOVE, (_point(board, a, text), _point(board, b, text)))
    return ParsedAction(ActionKind.PLACE, (_point(board, text, text),))


def parse_jump_action(board: Board, text: str) -> ParsedAction:
    """`d3-d4` (a step) or `d5xd3xf1` (a capture chain) on the Nau Keti Keta board."""
    if "x" in text:
        names = text.split("x")
        if len(names) < 2:
            raise InvalidNotationError(N_("{text}: a jump names its start and landings"),
                                       text=repr(text))
        return ParsedAction(ActionKind.JUMP, tuple(_point(board, n, text) for n in names))
    if "-" in text:
        a, _, b = text.partition("-")
        return ParsedAction(ActionKind.MOVE, (_point(board, a, text), _point(board, b, text)))
    raise InvalidNotationError(N_("{text}: Nau Keti Keta has no placements; write a step a-b "
                                  "or a jump axbxc"), text=repr(text))


# -- Sanmill position strings -----------------------------------------------------------------
SANMILL_RINGS = (
    ("d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5"),
    ("d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6"),
    ("d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7"),
)
_RING_NAMES = (N_("inner"), N_("middle"), N_("outer"))
SANMILL_SQUARES: dict[str, int] = {
    name: 8 * (r + 1) + i for r, ring in enumerate(SANMILL_RINGS) for i, name in enumerate(ring)}
"""Point name -> Sanmill's square number (position.h: SQ_8.. SQ_31, ring by ring)."""
_SQUARE_NAMES = {sq: name for name, sq in SANMILL_SQUARES.items()}
MILLS_TOKEN = "mills:"
_COUNTS = re.compile(r"(?:w(\d+))?(?:b(\d+))?")


def _square(board: Board, p: int) -> int:
    return SANMILL_SQUARES[board.points[p]]


def _sanmill_mask(board: Board, mask: int) -> int:
    out = 0
    for name in board.names(mask):
        out |= 1 << SANMILL_SQUARES[name]
    return out


def format_mill_counts(board: Board, counts: dict[tuple[str, ...], tuple[int, int]]) -> str:
    """The `mills:` extension token ("" when no mill has formed)."""
    entries = []
    for names, (w, b) in counts.items():
        entries.append("-".join(names) + "=" + (f"w{w}" if w else "") + (f"b{b}" if b else ""))
    return MILLS_TOKEN + ",".join(entries) if entries else ""


def parse_mill_counts(board: Board, token: str) -> dict[int, tuple[int, int]]:
    """Read a `mills:` token: mill number -> (white, black) counts."""
    mills = [board.mask(m) for m in board.mills]
    out: dict[int, tuple[int, int]] = {}
    body = token[len(MILLS_TOKEN):]
    for entry in body.split(","):
        line, eq, counts = entry.partition("=")
        names = line.split("-")
        if not eq or len(names) != 3 or not all(board.has_point(n) for n in names):
            raise InvalidNotationError(N_("{token}: {entry} is not a mill and its counts, as "
                                          "a7-d7-g7=w2b1"), token=repr(token), entry=repr(entry))
        mask = board.mask(names)
        if mask not in mills:
            raise InvalidNotationError(N_("{token}: {mill} is not a mill of the {board} board"),
                                       token=repr(token), mill=line, board=board.name)
        found = _COUNTS.fullmatch(counts)
        k = mills.index(mask)
        if not counts or found is None or k in out:
            raise InvalidNotationError(N_("{token}: {entry} needs counts as w<number>, "
                                          "b<number> or both, once a mill"),
                                       token=repr(token), entry=repr(entry))
        w, b = (int(g) if g else 0 for g in found.groups())
        out[k] = (w, b)
    return out


def morris_to_fen(board: Board, position: MorrisPosition) -> str:
    """The position string of a morris position on `board`."""
    white, black = position.white, position.black
    rings = []
    for ring in SANMILL_RINGS:
        chars = []
        for name in ring:
            if not board.has_point(name):
                chars.append("*")
                continue
            bit = 1 << board.index(name)
            chars.append("O" if white & bit else "@" if black & bit else "*")
        rings.append("".join(chars))
    side = position.side
    pending = position.pending
    placing = bool(position.hand[0] or position.hand[1])
    action = "r" if pending else ("p" if placing else "s")
    squares: list[int] = []
    for move in position.remembered:
        squares += [_square(board, move[0]), _square(board, move[1])] if move else [0, 0]
    mills = board.mill_masks
    counts = {board.names(mills[k]): pair
              for k, pair in sorted(position.mill_counts.items()) if pair[0] or pair[1]}
    formed = [0, 0]
    for names, pair in counts.items():
        for s in (0, 1):
            if pair[s]:
                formed[s] |= _sanmill_mask(board, board.mask(names))
    fields = [
        "/".join(rings),
        "w" if side == 0 else "b",
        "p" if placing else "m",
        action,
        white.bit_count(), position.hand[0], black.bit_count(), position.hand[1],
        pending if side == 0 else 0, pending if side == 1 else 0,
        *squares,
        formed[0] << 32 | formed[1],
        position.quiet, position.fullmove,
    ]
    extension = format_mill_counts(board, counts)
    return " ".join(str(f) for f in fields) + (" " + extension if extension else "")


MAX_PENDING = 3


def _not_whole(number: int, label: str, value: str) -> InvalidNotationError:
    return InvalidNotationError(N_("position field {number} ({label}) must be a whole number, "
                                   "not {value}"), number=number, label=Wording.of(label),
                                value=repr(value))


def _int_field(fields: list[str], i: int, label: str, text: str) -> int:
    """Field `i` as a whole number; `label` (marked N_) names it."""
    try:
        value = int(fields[i])
    except ValueError:
        raise _not_whole(i + 1, label, fields[i]) from None
    if value < 0:
        raise InvalidNotationError(N_("position field {number} ({label}) must not be negative"),
                                   number=i + 1, label=Wording.of(label))
    return value


def morris_from_fen(rules: Rules, text: str) -> MorrisPosition:
    """Read a morris position string under `rules`; says which field is wrong. Whether
    play can reach the position is the game's to judge when it loads the record."""
    board = BOARDS[rules.board]
    fields = text.split()
    if len(fields) < 8:
        raise InvalidNotationError.counted(Nn_(
            "position has {count} field; expected at least 8: rings, side, phase, action, "
            "white on board, white in hand, black on board, black in hand",
            "position has {count} fields; expected at least 8: rings, side, phase, action, "
            "white on board, white in hand, black on board, black in hand"), len(fields))
    rings = fields[0].split("/")
    if len(rings) != 3:
        raise InvalidNotationError.counted(Nn_(
            "position field 1 (board) has {count} ring separated by '/'; expected 3",
            "position field 1 (board) has {count} rings separated by '/'; expected 3"),
            len(rings))
    masks = [0, 0]
    for r, (ring_text, ring_names) in enumerate(zip(rings, SANMILL_RINGS)):
        if len(ring_text) != 8:
            raise InvalidNotationError.counted(Nn_(
                "position field 1 (board): the {ring} ring has {count} point; expected 8",
                "position field 1 (board): the {ring} ring has {count} points; expected 8"),
                len(ring_text), ring=Wording.of(_RING_NAMES[r]))
        for ch, name in zip(ring_text, ring_names):
            if ch == "*":
                continue
            if ch not in "O@":
                raise InvalidNotationError(N_("position field 1 (board): {char} at {point} is "
                                              "not O (white), @ (black) or * (empty)"),
                                           char=repr(ch), point=name)
            if not board.has_point(name):
                raise InvalidNotationError(N_("position field 1 (board): {point} is not a point "
                                              "of the {board} board"), point=name,
                                           board=board.name)
            masks[0 if ch == "O" else 1] |= 1 << board.index(name)
    if fields[1] not in ("w", "b"):
        raise InvalidNotationError(N_("position field 2 (side) must be w or b, not {value}"),
                                   value=repr(fields[1]))
    side = 0 if fields[1] == "w" else 1
    if fields[2] not in ("p", "m", "o"):
        raise InvalidNotationError(N_("position field 3 (phase) must be p (placing) or m "
                                      "(moving), not {value}"), value=repr(fields[2]))
    if fields[3] not in ("p", "s", "r"):
        raise InvalidNotationError(N_("position field 4 (action) must be p, s or r, not {value}"),
                                   value=repr(fields[3]))
    labels = (N_("white on board"), N_("white in hand"), N_("black on board"), N_("black in hand"))
    tallies = [_int_field(fields, 4 + i, labels[i], text) for i in range(4)]
    shown = (Nn_("position field 5 (white on board) says {said} but the board shows {count} "
                 "white pebble",
                 "position field 5 (white on board) says {said} but the board shows {count} "
                 "white pebbles"),
             Nn_("position field 7 (black on board) says {said} but the board shows {count} "
                 "black pebble",
                 "position field 7 (black on board) says {said} but the board shows {count} "
                 "black pebbles"))
    kept = (Nn_("white has {count} pebble on board and in hand; {rules} gives each side {pieces}",
                "white has {count} pebbles on board and in hand; {rules} gives each side "
                "{pieces}"),
            Nn_("black has {count} pebble on board and in hand; {rules} gives each side {pieces}",
                "black has {count} pebbles on board and in hand; {rules} gives each side "
                "{pieces}"))
    for s in (0, 1):
        if tallies[2 * s] != masks[s].bit_count():
            raise InvalidNotationError.counted(shown[s], masks[s].bit_count(),
                                               said=tallies[2 * s])
        if tallies[2 * s] + tallies[2 * s + 1] > rules.pieces:
            raise InvalidNotationError.counted(kept[s], tallies[2 * s] + tallies[2 * s + 1],
                                               rules=rules.name, pieces=rules.pieces)
    hand = (tallies[1], tallies[3])
    if fields[2] == "m" and (hand[0] or hand[1]):
        raise InvalidNotationError(N_("position field 3 says moving but pebbles are still in "
                                      "hand"))
    pending = 0
    if len(fields) >= 10:
        pw = _int_field(fields, 8, N_("white's pebbles to take"), text)
        pb = _int_field(fields, 9, N_("black's pebbles to take"), text)
        for i, value in ((9, pw), (10, pb)):
            if value > MAX_PENDING:  # one move closes at most three mills (diagonal boards)
                raise InvalidNotationError(N_("position field {number} (pebbles to take) must "
                                              "be 0..{high}, not {value}"),
                                           number=i, high=MAX_PENDING, value=value)
        if (pw if side else pb):
            raise InvalidNotationError(N_("pebbles are to be taken by the side not to act"))
        pending = pb if side else pw
    if (fields[3] == "r") != bool(pending):
        raise InvalidNotationError(
            N_("position field 4 (action) says r (take) but no pebble is to be taken")
            if pending == 0 else N_("a pebble is to be taken but position field 4 (action) is not r"))
    remembered: list[tuple[int, int] | None] = [None, None]
    if len(fields) >= 14:
        labels = (N_("white's last mill origin"), N_("white's last mill target"),
                  N_("black's last mill origin"), N_("black's last mill target"))
        squares = [_int_field(fields, 10 + i, labels[i], text) for i in range(4)]
        for s in (0, 1):
            a, b = squares[2 * s], squares[2 * s + 1]
            if a == b == 0:
                continue
            for i, sq in ((2 * s, a), (2 * s + 1, b)):
                if sq not in _SQUARE_NAMES or not board.has_point(_SQUARE_NAMES[sq]):
                    raise InvalidNotationError(N_("position field {number} ({label}) must be 0 "
                                                  "or a Sanmill square number of the {board} "
                                                  "board, not {value}"), number=11 + i,
                                               label=Wording.of(labels[i]), board=board.name,
                                               value=sq)
            remembered[s] = (board.index(_SQUARE_NAMES[a]), board.index(_SQUARE_NAMES[b]))
    counts: dict[int, tuple[int, int]] = {}
    if len(fields) >= 15:
        try:
            formed = int(fields[14])
        except ValueError:
            raise _not_whole(15, N_("mills"), fields[14]) from None
        squares_mask = sum(1 << sq for sq in _SQUARE_NAMES)
        per_side = (formed >> 32, formed & 0xFFFFFFFF)
        if formed < 0 or formed >> 64 or any(m & ~squares_mask for m in per_side):
            raise InvalidNotationError(N_("position field 15 (mills) holds squares that are not "
                                          "Sanmill's: {value}"), value=formed)
        for k, names in enumerate(board.mills):
            line = sum(1 << SANMILL_SQUARES[n] for n in names)
            pair = (int(per_side[0] & line == line), int(per_side[1] & line == line))
            if any(pair):
                counts[k] = pair
    quiet = (_int_field(fields, 15, N_("moves without a pebble taken"), text)
             if len(fields) >= 16 else 0)
    fullmove = _int_field(fields, 16, N_("move number"), text) if len(fields) >= 17 else 1
    for token in fields[17:]:
        if token.startswith(MILLS_TOKEN):
            counts = parse_mill_counts(board, token)
        else:
            raise InvalidNotationError(N_("position: {token} after field 17 is not a known "
                                          "extension ({prefix}...)"), token=repr(token),
                                       prefix=MILLS_TOKEN)
    return MorrisPosition(masks[0], masks[1], hand, side, pending, quiet, max(fullmove, 1),
                          counts, (remembered[0], remembered[1]))


# -- Nau Keti Keta position strings ---------------------------------------------------------
def jump_to_text(board: Board, position: JumpPosition) -> str:
    """Rows from the top (a7 d7 g7) to the bottom (a1 d1 g1), then side, quiet moves, move."""
    white, black = position.white, position.black
    rows: dict[int, list[str]] = {}
    for i, name in enumerate(board.points):
        bit = 1 << i
        rows.setdefault(int(name[1:]), []).append("O" if white & bit else "@" if black & bit else "*")
    body = "/".join("".join(rows[r]) for r in sorted(rows, reverse=True))
    huff = position.huff
    fields = [body, "w" if position.side == 0 else "b", str(position.quiet),
              str(position.fullmove)]
    if huff:
        fields.append("h:" + ",".join(board.names(huff)))
    return " ".join(fields)


def jump_from_text(rules: Rules, text: str) -> JumpPosition:
    """Read a Nau Keti Keta position string under `rules`; says which field is wrong."""
    board = BOARDS[rules.board]
    fields = text.split()
    if len(fields) < 2:
        raise InvalidNotationError(N_("position needs at least the rows and the side (w or b)"))
    rows_by_number: dict[int, list[int]] = {}
    for i, name in enumerate(board.points):
        rows_by_number.setdefault(int(name[1:]), []).append(i)
    numbers = sorted(rows_by_number, reverse=True)
    rows = fields[0].split("/")
    if len(rows) != len(numbers):
        raise InvalidNotationError.counted(Nn_(
            "position field 1 has {count} row; the {board} board has {rows}",
            "position field 1 has {count} rows; the {board} board has {rows}"), len(rows),
            board=board.name, rows=len(numbers))
    masks = [0, 0]
    for row_text, number in zip(rows, numbers):
        idx = rows_by_number[number]
        if len(row_text) != len(idx):
            raise InvalidNotationError.counted(Nn_(
                "position field 1: row {row} has {count} point; expected {expected}",
                "position field 1: row {row} has {count} points; expected {expected}"),
                len(row_text), row=number, expected=len(idx))
        for ch, i in zip(row_text, idx):
            if ch == "O":
                masks[0] |= 1 << i
            elif ch == "@":
                masks[1] |= 1 << i
            elif ch != "*":
                raise InvalidNotationError(N_("position field 1: {char} at {point} is not O, "
                                              "@ or *"), char=repr(ch), point=board.points[i])
    if fields[1] not in ("w", "b"):
        raise InvalidNotationError(N_("position field 2 (side) must be w or b, not {value}"),
                                   value=repr(fields[1]))
    too_many = (Nn_("white has {count} pebble; {rules} gives {pieces}",
                    "white has {count} pebbles; {rules} gives {pieces}"),
                Nn_("black has {count} pebble; {rules} gives {pieces}",
                    "black has {count} pebbles; {rules} gives {pieces}"))
    for s in (0, 1):
        if masks[s].bit_count() > rules.pieces:
            raise InvalidNotationError.counted(too_many[s], masks[s].bit_count(),
                                               rules=rules.name, pieces=rules.pieces)
    quiet = _int_field(fields, 2, N_("moves without a pebble taken"), text) if len(fields) > 2 else 0
    fullmove = _int_field(fields, 3, N_("move number"), text) if len(fields) > 3 else 1
    huff = 0
    if len(fields) > 4:
        if not fields[4].startswith("h:"):
            raise InvalidNotationError(N_("position field 5 must be h:points, not {value}"),
                                       value=repr(fields[4]))
        huff = board.mask(n for n in fields[4][2:].split(",") if n)
    return JumpPosition(masks[0], masks[1], 0 if fields[1] == "w" else 1, quiet,
                        max(fullmove, 1), huff)

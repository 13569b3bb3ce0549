"""A game record a person can keep: PGN's shape with this board's notation.

Tag pairs first, then the moves numbered white-and-black, one number per line, the result
last. A turn's removals are joined to the move that earned them (`d2-d3xf4`), as Sanmill
writes them, and a start position other than the usual one is Sanmill's FEN tag pair, so
Sanmill's import reads the moves and the position of a record written here:

    [Event "Navakankari"]
    [Site "Grandma's board"]
    [Date "2026.11.27"]
    [Round "-"]
    [White "hand"]
    [Black "computer:3"]
    [Result "1-0"]
    [Variant "navakankari"]
    [Termination "blocked"]

    1. d6 f4
    2. d2 b4
    1-0

A game the board's computer played keeps its search's seed in `Seed` (a whole number), from
which its choices repeat (`Player.follow_seed`). `Variant` names a preset; `Rules` (written
only where the game's rules differ from it) lists the differences as `option=value` pairs
separated by `;`. A record that starts with black to act numbers black's first move `1...`.
Reading accepts what PGN readers accept around the moves: comments in braces or after `;`,
`$n` glyphs, `!`/`?` marks and variations in parentheses are skipped. A record is untrusted input (a file, an upload):
its size, its tags and its nesting are bounded before it is read, and every error names
the line.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .errors import GameOverError, IllegalActionError, InvalidNotationError, UnknownVariantError
from .game import Game
from .outcome import Outcome, Side, outcome_wording, side_wording
from .player import SEEDS
from .presets import PRESETS
from .rules import Rules
from .translator import N_
from .variants import game_from_position, start_game

MAX_RECORD_CHARS = 1_000_000
"""A record longer than this is refused before it is read (a game of the longest variant
with every draw rule off is far shorter)."""
MAX_TAGS = 64
MAX_TAG_CHARS = 1_000
MAX_NESTING = 16
"""How deep comments' and variations' parentheses may nest before the record is refused."""

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
"""PGN's seven tags, written in this order and always present."""
OWN_TAGS = ("Variant", "Rules", "Termination", "FEN", "SetUp", "Seed")
"""Tags this module reads into fields; others are kept as they came, in order."""


class InvalidRecordError(InvalidNotationError):
    """A game record that cannot be read, or whose moves cannot be played; says where."""


@dataclass(frozen=True)
class GameRecord:
    """One game as a record holds it: who, where, when, under which rules, the moves (one
    token a turn, removals joined) and the result."""

    rules: Rules
    moves: tuple[str, ...] = ()
    white: str = "?"
    black: str = "?"
    event: str = "?"
    site: str = "?"
    date: str = "????.??.??"
    round: str = "-"
    result: str = "*"  #: one of RESULTS
    termination: str | None = None  #: why it ended: a rules reason or the board's
    start: str | None = None  #: the start position, when it is not the variant's own
    tags: tuple[tuple[str, str], ...] = field(default=())  #: other tags, kept as read
    seed: int | None = None  #: the seed the computer's search followed (0..SEEDS-1)

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise InvalidRecordError(N_("result must be one of {results}, not {value}"),
                                     results=", ".join(RESULTS), value=repr(self.result))
        if self.seed is not None and not 0 <= self.seed < SEEDS:
            raise InvalidRecordError(N_("a seed is a whole number 0..{high}, not {value}"),
                                     high=SEEDS - 1, value=self.seed)


def result_of(outcome: Outcome | None) -> str:
    """PGN's result for an outcome (`*` for a game still in play)."""
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == Side.WHITE else "0-1"


def record_of(game: Game, *, start: str | None = None, **tags: Any) -> GameRecord:
    """The record of `game` as it stands; `tags` fill the other fields (white, black, site,
    date, result, termination ...). `start` is the position the game began from when it was
    not the variant's own; the result and termination default to the rules' outcome."""
    outcome = game.outcome()
    tags.setdefault("result", result_of(outcome))
    if outcome is not None:
        tags.setdefault("termination", outcome.reason.value)
    return GameRecord(rules=game.rules, moves=tuple(game.record(combined=True).split()),
                      start=start, **tags)


# -- writing -------------------------------------------------------------------------------

def format_record(record: GameRecord) -> str:
    """The record as text; `parse_record` reads it back to an equal record."""
    tags = [("Event", record.event), ("Site", record.site), ("Date", record.date),
            ("Round", record.round), ("White", record.white), ("Black", record.black),
            ("Result", record.result), ("Variant", record.rules.name)]
    differences = _rule_differences(record.rules)
    if differences:
        tags.append(("Rules", differences))
    if record.termination is not None:
        tags.append(("Termination", record.termination))
    if record.start is not None:
        tags += [("FEN", record.start), ("SetUp", "1")]
    if record.seed is not None:
        tags.append(("Seed", str(record.seed)))
    tags += list(record.tags)
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    lines.append("")
    lines += _movetext(record)
    lines.append(record.result)
    return "\n".join(lines) + "\n"


def _movetext(record: GameRecord) -> list[str]:
    """One line a number: white's turn and black's. Which side acts first comes from the
    start position, so a record from a position with black to act opens `1... f4`."""
    first = _first_side(record)
    lines: list[str] = []
    moves = list(record.moves)
    number = 1
    if first == Side.BLACK and moves:
        lines.append(f"{number}... {moves.pop(0)}")
        number += 1
    for k in range(0, len(moves), 2):
        lines.append(f"{number}. " + " ".join(moves[k:k + 2]))
        number += 1
    return lines


def _first_side(record: GameRecord) -> Side:
    if record.start is None:
        return Side.WHITE
    return game_from_position(record.rules, record.start).turn


def _escape(value: str) -> str:
    if any(c in value for c in "\n\r"):
        raise InvalidRecordError(N_("a tag value cannot hold a line break: {value}"),
                                 value=repr(value))
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _rule_differences(rules: Rules) -> str:
    base = PRESETS.get(rules.name, Rules(name=rules.name))
    return "; ".join(f"{f.name}={_rule_value(getattr(rules, f.name))}"
                     for f in dataclasses.fields(Rules)
                     if f.name != "name" and getattr(rules, f.name) != getattr(base, f.name))


def _rule_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


# -- reading -------------------------------------------------------------------------------

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_NUMBER = re.compile(r"(\d+)\.(\.\.)?")
_GLYPHS = re.compile(r"[!?]+$")


def parse_record(text: str) -> GameRecord:
    """Read a record written by `format_record` or by another PGN-style writer (Sanmill's
    among them). Checks the shape, not the moves: `replay_record` plays them."""
    if len(text) > MAX_RECORD_CHARS:
        raise InvalidRecordError(N_("a record is at most {most} characters; this one has "
                                    "{count}"), most=f"{MAX_RECORD_CHARS:,}",
                                 count=f"{len(text):,}")
    lines = text.splitlines()
    tags: dict[str, str] = {}
    order: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k].strip()
        if line.startswith("["):
            match = _TAG.match(line)
            if match is None:
                raise InvalidRecordError(N_('line {line}: a tag pair is written [Name "value"], '
                                            'not {text}'), line=k + 1, text=repr(line[:60]))
            name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
            if name in tags:
                raise InvalidRecordError(N_("line {line}: the tag {name} is given twice"),
                                         line=k + 1, name=name)
            if len(tags) >= MAX_TAGS or len(value) > MAX_TAG_CHARS:
                raise InvalidRecordError(N_("line {line}: at most {tags} tags of at most "
                                            "{chars} characters"), line=k + 1, tags=MAX_TAGS,
                                         chars=MAX_TAG_CHARS)
            tags[name] = value
            order.append(name)
        elif line and not line.startswith("%"):
            break
        k += 1
    moves, result = _read_movetext(lines, k)
    if not tags and not moves and result is None:
        raise InvalidRecordError(N_("the record is empty: no tag pair and no move"))
    header_result = tags.get("Result") or result or "*"
    if header_result not in RESULTS:
        raise InvalidRecordError(N_("the Result tag must be one of {results}, not {value}"),
                                 results=", ".join(RESULTS), value=repr(header_result))
    if result not in (None, header_result):
        raise InvalidRecordError(N_("the moves end in {result} but the Result tag says "
                                    "{tag}"), result=result, tag=header_result)
    rules = _rules_from_tags(tags)
    start = tags.get("FEN") if tags.get("SetUp", "1" if "FEN" in tags else "0") == "1" else None
    if start is not None:
        try:
            game_from_position(rules, start)
        except InvalidNotationError as exc:
            raise InvalidRecordError(N_("the FEN tag: {problem}"), problem=exc) from None
    known = {"Event": "event", "Site": "site", "Date": "date", "Round": "round",
             "White": "white", "Black": "black"}
    fields = {attr: tags[name] for name, attr in known.items() if name in tags}
    extra = tuple((name, tags[name]) for name in order
                  if name not in known and name not in OWN_TAGS and name != "Result")
    seed = tags.get("Seed")
    if seed is not None and not (seed.isascii() and seed.isdigit() and int(seed) < SEEDS):
        raise InvalidRecordError(N_("the Seed tag must be a whole number 0..{high}, not "
                                    "{value}"), high=SEEDS - 1, value=repr(seed[:40]))
    return GameRecord(rules=rules, moves=tuple(moves), result=header_result,
                      termination=tags.get("Termination"), start=start, tags=extra,
                      seed=None if seed is None else int(seed), **fields)


def _rules_from_tags(tags: dict[str, str]) -> Rules:
    variant = tags.get("Variant")
    if variant is None:
        # Sanmill writes no variant: its records are nine men's morris unless told.
        variant = "nine-mens-morris"
    base = PRESETS.get(variant)
    differences = tags.get("Rules", "").strip()
    if base is None and not differences:
        raise InvalidRecordError(N_("the Variant tag names {name}, which is no variant here "
                                    "(there are {variants}), and no Rules tag says its rules"),
                                 name=repr(variant), variants=", ".join(PRESETS))
    rules = base or Rules(name=variant)
    if not differences:
        return rules
    changes: dict[str, Any] = {}
    fields = {f.name: f for f in dataclasses.fields(Rules)}
    for pair in differences.split(";"):
        key, sep, value = (s.strip() for s in pair.partition("="))
        if not sep or key not in fields or key == "name":
            raise InvalidRecordError(N_("the Rules tag: {pair} is not option=value with an "
                                        "option of {options}"), pair=repr(pair.strip()),
                                     options=", ".join(n for n in fields if n != "name"))
        changes[key] = _coerce(fields[key], getattr(rules, key), value)
    try:
        return rules.replace(**changes)
    except (ValueError, UnknownVariantError) as exc:
        raise InvalidRecordError(N_("the Rules tag: {problem}"), problem=exc) from None


def _coerce(option: dataclasses.Field[Any], current: object, text: str) -> object:
    """A rule option's value from its text, typed like the option's own value."""
    optional = "None" in str(option.type)
    sample = current if current is not None else option.default
    try:
        if text == "none" and optional:
            return None
        if isinstance(sample, bool):
            if text not in ("true", "false"):
                raise InvalidRecordError(N_("the Rules tag: {option}={value} is not a value of "
                                            "{option} (true or false)"), option=option.name,
                                         value=text)
            return text == "true"
        if isinstance(sample, Enum):
            return type(sample)(text)
        if isinstance(sample, int) or sample is None:
            return int(text)
        return text
    except InvalidRecordError:
        raise
    except ValueError as exc:
        raise InvalidRecordError(N_("the Rules tag: {option}={value} is not a value of "
                                    "{option} ({problem})"), option=option.name, value=text,
                                 problem=exc) from None


def _read_movetext(lines: list[str], start: int) -> tuple[list[str], str | None]:
    moves: list[str] = []
    result: str | None = None
    for number, token in _tokens(lines, start):
        if result is not None:
            raise InvalidRecordError(N_("line {line}: {token} follows the result {result}"),
                                     line=number, token=repr(token), result=result)
        if token in RESULTS:
            result = token
            continue
        match = _NUMBER.match(token)
        if match:
            token = token[match.end():]
            if not token:
                continue
        if token.startswith("$"):
            continue
        token = _GLYPHS.sub("", token)
        if not token or len(token) > 64 or not re.fullmatch(r"[a-z0-9x-]+", token):
            raise InvalidRecordError(N_("line {line}: {token} is not a move"), line=number,
                                     token=repr(token))
        moves.append(token)
    return moves, result


def _tokens(lines: list[str], start: int) -> Iterator[tuple[int, str]]:
    """The movetext's words, comments and variations left out, each with its line."""
    depth = 0  # inside parentheses (variations)
    in_brace = False
    for index in range(start, len(lines)):
        line = lines[index]
        word = ""
        k = 0
        while k < len(line):
            c = line[k]
            if in_brace:
                in_brace = c != "}"
            elif c == "{":
                in_brace = True
            elif c == ";":
                break
            elif c == "(":
                depth += 1
                if depth > MAX_NESTING:
                    raise InvalidRecordError(N_("line {line}: variations nest more than {most} "
                                                "deep"), line=index + 1, most=MAX_NESTING)
            elif c == ")":
                if depth == 0:
                    raise InvalidRecordError(N_("line {line}: ')' closes no variation"),
                                             line=index + 1)
                depth -= 1
            elif depth == 0 and not c.isspace():
                word += c
                k += 1
                continue
            if word:
                yield index + 1, word
                word = ""
            k += 1
        if word:
            yield index + 1, word
    if in_brace or depth:
        raise InvalidRecordError(N_("the record ends inside a comment or a variation"))


# -- playing -------------------------------------------------------------------------------

def replay_record(record: GameRecord) -> Game:
    """The game a record holds, every move checked; an error names the move by its number
    and side. A result the moves contradict (the record says white won, the rules say the
    game was drawn) is an error; a result the rules cannot see (a resignation) is not."""
    game = start_game(record.rules, record.start)
    first = game.turn
    for k, token in enumerate(record.moves):
        number = (k + (first == Side.BLACK)) // 2 + 1
        side = game.turn
        try:
            game.play(token)
        except (InvalidNotationError, IllegalActionError, GameOverError) as exc:
            raise InvalidRecordError(N_("move {number} ({side}, {token}): {problem}"),
                                     number=number, side=side_wording(side), token=token,
                                     problem=exc) from None
    outcome = game.outcome()
    if outcome is not None and record.result not in ("*", result_of(outcome)):
        raise InvalidRecordError(N_("the record says {result}, but its moves end in {outcome}"),
                                 result=record.result, outcome=outcome_wording(outcome))
    return game

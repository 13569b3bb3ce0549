"""Replay a recording of raw sensor events through the same session the daemon runs.

A recording is JSON Lines, `{"t": 0.25, "point": "d6", "present": true}` a line, `t` in
seconds from the start; the board starts empty (for Nau Keti Keta the recording first sets
the pebbles up, and the game starts once the start position is complete). The clock is
simulated: it stops at every deadline between events and runs on after the last one until
nothing is pending. A computer side answers at once with the turn the recording's hands then
carry out (a seeded random turn when they carry out none of its legal turns), and a remote
side's move is that turn too, so a game against either replays as it was played.

A recording's first line may say what it plays (`core/recording_head.py`): the game
(`# navakankari-game`, written for every game the daemon records) or how the board's menu
stood (`# navakankari-menu`, a game chosen on the board; with `menu`, a recording without the
line starts in the menu too): the variant and players given are then "the same as last
time", and the choices made on the board decide the game.

A replay that leaves events unexplained (the board at the end is not the game's, a point that
is not on the board, a menu where nothing was chosen) says which, so a recording of another
variant never replays silently to nothing.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

from navakankari.engine.actions import Action
from navakankari.engine.boards import BOARDS
from navakankari.engine.game import Game, Side
from navakankari.engine.player import SEEDS, RandomPlayer
from navakankari.engine.presets import preset
from navakankari.engine.rules import Rules
from navakankari.engine.variants import start_game
from navakankari.hal.sensors import SensorEvent
from navakankari.hal.words import N_, Phrase
from navakankari.sim.recording import RecordingError, iter_events

from ..core import wording
from navakankari.engine.advice import Advisor
from ..core.clockwork import drive
from ..core.menu import GameChoice, MenuSettings
from ..core.players import HAND, PlayerSpec, computer_turn
from ..core.recording_head import MenuStart, find, find_game
from ..core.session import Session
from ..core.update import Update
from ..core.status import StatusKind
from ..core.tracker import TrackerSettings


#: Updates that decide something: an action, a game chosen or started, a takeback, a
#: brightness chosen in the menu.
DECISIONS = frozenset({"actions", "new-game", "takeback", "brightness"})


def full_turns(game: Game) -> Iterator[tuple[Action, ...]]:
    """Every whole turn of the side to act: an action and each removal it earns."""
    side = game.turn
    for action in game.legal_actions():
        probe = game.copy()
        probe.push(action)
        if probe.outcome() is None and probe.turn == side and probe.pending_removals:
            for rest in full_turns(probe):
                yield (action, *rest)
        else:
            yield (action,)


class _Replayer:
    """A session whose computer (and remote) turns are answered synchronously: with the
    turn the recording's hands carry out next, else (the computer's) a seeded random one.
    The advice a side with assistance gets is made at once too, so the replay lights what
    the board lit (the board's own was made in the time it had, so a deeper or shallower
    search may class a move differently)."""

    def __init__(self, session: Session, events: Sequence[SensorEvent], seed: int) -> None:
        self.session = session
        self.events = events
        self.seed = seed
        self.fed = 0  #: events fed so far
        self.occupied: set[str] = set()  #: what the sensors read after them
        self.players: dict[tuple[Side, int], RandomPlayer] = {}
        self.now = 0.0
        self.decided: float | None = None  #: when the session last decided something
        self.advisor: Advisor | None = None  #: made on the first request
        session.subscribe(self._update)

    def _update(self, update: Update) -> None:
        if update.reason in DECISIONS:
            self.decided = self.now

    def feed(self, event: SensorEvent) -> None:
        self.now = event.t
        self.fed += 1
        (self.occupied.add if event.present else self.occupied.discard)(event.point)
        self.session.feed(event)

    def tick(self, now: float) -> None:
        self.now = now
        self.session.tick(now)
        self._advise(now)
        self._remote(now)
        for _ in range(4):
            request = self.session.answers.computer_request()
            if request is None:
                return
            actions = self._foreseen(request.game)
            if actions is None:
                key = (request.side, request.level)
                if key not in self.players:  # the players may be chosen on the board
                    self.players[key] = RandomPlayer(self.seed + int(request.side))
                actions = computer_turn(self.players[key], request.game)
            self.session.answers.offer(request, actions, now)
            self.session.tick(now)

    def _advise(self, now: float) -> None:
        request = self.session.answers.advice_request()
        if request is not None:
            self.advisor = self.advisor or Advisor()
            self.session.answers.advise(self.advisor.advise(request), now)

    def _remote(self, now: float) -> None:
        """A remote side's move came from the page (an online one from the other board): the
        one the hands then carried out."""
        session = self.session
        game = session.game
        if (session.menu is not None or game.outcome() is not None
                or not session.players[game.turn].moves_arrive
                or session.status.kind != StatusKind.THINKING):
            return
        turn = self._foreseen(game)
        if turn is not None:
            session.answers.remote_move("".join(a.text for a in turn), now)
            session.tick(now)

    def _foreseen(self, game: Game) -> tuple[Action, ...] | None:
        """The turn whose position the hands set up next in the recording, if any."""
        board = game.board
        results: dict[frozenset[str], tuple[Action, ...]] = {}
        for turn in full_turns(game):
            probe = game.copy()
            for action in turn:
                probe.push(action)
            results.setdefault(frozenset(board.names(probe.occupancy)), turn)
        occupied = set(self.occupied)
        for event in self.events[self.fed:]:
            (occupied.add if event.present else occupied.discard)(event.point)
            found = results.get(frozenset(occupied))
            if found is not None:
                return found
        return None

    def deadline(self) -> float | None:
        return self.session.deadline()


@dataclass(frozen=True)
class Recording:
    """A recording read: its events and what its first line says it plays."""

    events: tuple[SensorEvent, ...]
    menu: MenuStart | None = None  #: it starts in the board's menu, which stood so
    game: GameChoice | None = None  #: it plays this game from its start position


def read_recording(stream: IO[str], name: str = "<recording>") -> list[SensorEvent]:
    return list(iter_events(stream, name))


def read_any(stream: IO[str], name: str = "<recording>") -> Recording:
    """A whole recording; RecordingError (one line naming `name`) for anything that is not
    one: bytes that are not text, a line that is not an event, no events at all."""
    try:
        text = stream.read()
    except UnicodeDecodeError as exc:
        raise RecordingError(Phrase(
            N_("{name}: not a recording of sensor events: byte 0x{byte} at offset {offset} is "
               "not UTF-8 text ({expected})"), name=name, byte=f"{exc.object[exc.start]:02x}",
            offset=exc.start, expected=expected())) from None
    events = read_recording(io.StringIO(text), name)
    if not events:
        raise RecordingError(Phrase(N_("{name}: no sensor events in it ({expected})"), name=name,
                                    expected=expected()))
    lines = text.splitlines()
    return Recording(tuple(events), find(lines, name), find_game(lines, name))


def expected() -> Phrase:
    """What a recording is, for an error about one that is not."""
    return Phrase(N_("a recording is JSON Lines, {example} a line"),
                  example='{"t": SECONDS, "point": "d6", "present": true}')


def read_menu_recording(stream: IO[str], name: str = "<recording>"
                        ) -> tuple[list[SensorEvent], MenuStart | None]:
    """The events, and how the board's menu stood if the recording starts in it (its first
    line says so: a game chosen on the board is recorded that way)."""
    recording = read_any(stream, name)
    return list(recording.events), recording.menu


@dataclass(frozen=True)
class Replayed:
    """A replay's end: the session, the events, and when it last decided something."""

    session: Session
    events: tuple[SensorEvent, ...]
    decided: float | None


def run_replay(events: Iterable[SensorEvent], rules: Rules, *,
               players: Mapping[Side, PlayerSpec] | None = None,
               settings: TrackerSettings = TrackerSettings(), seed: int = 0,
               menu: MenuSettings | None = None,
               variants: Sequence[str] | None = None, online: bool = False) -> Replayed:
    """Run the events through a fresh session (no store). `menu` and `variants` as the
    daemon's (its `game.menu_hold`, its profile's variants); `seed` also decides the menu's
    tosses, as the daemon's own (0), and each game's seed, so a replay repeats."""
    events = tuple(events)
    seeds = random.Random(seed)
    session = Session(rules, players or {Side.WHITE: HAND, Side.BLACK: HAND}, settings=settings,
                      occupied=(), now=0.0, auto_new_game=False, menu=menu, variants=variants,
                      seed=seed, online=online, game_seeds=lambda: seeds.randrange(SEEDS))
    runner = _Replayer(session, events, seed)
    runner.tick(0.0)
    drive(runner, events)
    return Replayed(session, events, runner.decided)


def replay(events: Iterable[SensorEvent], rules: Rules, **options: Any) -> Session:
    """`run_replay`'s session at the end."""
    return run_replay(events, rules, **options).session


def unmatched(result: Replayed) -> str | None:
    """Why some of the recording's events never matched the game, in one sentence, or None
    when the replay explains them all: the board at the end is the game's (or, in the menu,
    something was chosen), and every point is on the board."""
    session, events = result.session, result.events
    board = session.game.board
    occupied: set[str] = set()
    for event in events:
        (occupied.add if event.present else occupied.discard)(event.point)
    problems = []
    # The points of every board the session could play on (the menu's variants may span two).
    boards = {board.name} | ({preset(name).board for name in session.dispatch.variants()}
                             if session.menu_settings is not None else set())
    points = {p for name in boards for p in BOARDS[name].points}
    strangers = sorted({e.point for e in events} - points)
    if strangers:
        where = f"the {board.name} board" if boards == {board.name} else \
            f"the {' or the '.join(sorted(boards))} board"
        problems.append(f"{_names(strangers)} {'is' if len(strangers) == 1 else 'are'} not on "
                        f"{where}")
    if session.menu is not None:
        if result.decided is None:
            problems.append("nothing was chosen in the board's menu")
    else:
        expected = set(board.names(session.game.occupancy))
        extra = sorted(occupied - expected - set(strangers))
        missing = sorted(expected - occupied)
        ends = ([f"pebbles on {_names(extra)} where the game has none"] if extra else []) + \
            ([f"no pebble on {_names(missing)} where the game has one"] if missing else [])
        if ends:
            problems.append("the board ends with " + " and ".join(ends))
    if not problems:
        return None
    late = [e for e in events if result.decided is None or e.t > result.decided
            or e.point in strangers]
    since = f" (from t={late[0].t:g} s)" if late else ""
    return (f"{len(late)} of {len(events)} events{since} never matched {session.rules.name}: "
            + "; ".join(problems))


def _names(points: Sequence[str], most: int = 8) -> str:
    shown = " ".join(points[:most])
    return shown + (f" and {len(points) - most} more" if len(points) > most else "")


def summary(session: Session) -> dict[str, Any]:
    """The replay's result: {"actions": [...], "position": "...", "outcome": null | {...},
    "variant": NAME, "white": SPEC, "black": SPEC, "first": SIDE} (the game played, chosen on
    the board or given; `first` the side that moved first)."""
    game = session.game
    outcome = game.outcome()
    return {"actions": [a.text for a in game.history], "position": game.position(),
            "outcome": outcome.to_dict() if outcome else None, "variant": session.rules.name,
            "white": str(session.players[Side.WHITE]), "black": str(session.players[Side.BLACK]),
            "first": str(session.first)}


def summary_json(session: Session) -> str:
    """The summary as one JSON line, for scripts (`replay --json`)."""
    return json.dumps(summary(session))


def summary_text(session: Session) -> str:
    """The summary for a reader: the game and its players, the actions numbered by turn (a
    move and its removals together, white's turn on the left), the position and the end."""
    game = session.game
    white, black = session.players[Side.WHITE], session.players[Side.BLACK]
    count = len(game.history)
    lines = [f"{session.rules.name}: white {white}, black {black}; "
             f"{count} action{'' if count == 1 else 's'}"]
    turns: list[tuple[Side, list[str]]] = []
    probe = start_game(session.rules, session.start)
    for action in game.history:
        if turns and turns[-1][0] == probe.turn:
            turns[-1][1].append(action.text)
        else:
            turns.append((probe.turn, [action.text]))
        probe.push(action)
    rows: list[list[str]] = []  # [white's turn, black's turn]
    for side, texts in turns:
        if side == Side.BLACK and rows and not rows[-1][1]:
            rows[-1][1] = " ".join(texts)
        else:
            rows.append([" ".join(texts), ""] if side == Side.WHITE else ["", " ".join(texts)])
    width = max((len(white) for white, _ in rows), default=0)
    lines += [f"{n:>4}. {white:<{width}}  {black}".rstrip()
              for n, (white, black) in enumerate(rows, start=1)]
    outcome = game.outcome()
    if session.menu is not None:
        end = "the board's menu is lit: no game in play"
    elif outcome is not None:
        end = wording.outcome_text(outcome)
    else:
        end = f"in play: {game.turn} to act"
    lines += [f"position: {game.position()}", end]
    return "\n".join(lines)

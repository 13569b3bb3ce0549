"""`navakankari bench fuzz`: random sensor events through the session, judged independently.

Streams of hand gestures are built by the simulated hands: legal actions of the game the
board shows (capture chains of Nau Keti Keta in every order, flying in the endgames of the
flying variants, moves slid along their lines), and between them what goes wrong on a real
board: sensors that chatter, pebbles slid across other
points, a wrong pebble lifted and put back, an opposing pebble taken off when no mill was
closed, a pebble flown to a far point, a stray pebble put down or lifted, pauses. Each
stream runs through a `Session` (sensing, tracker, store left out) on a simulated clock;
then

- an exception from the session is a *crash* (the stream is abandoned);
- every committed action is judged by the referee (`referee.py`, which knows the boards
  and rules on its own) or, on a board it does not know, by replaying the record through
  the engine: a wrong one is an *illegal commit*;
- the board is put back to what the game expects, by hand: if the session then does not
  match it, or still shows a mismatch, the state was *unrecoverable*.

The figures count events fed; the run is sized by `--events` and repeatable by `--seed`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.errors import RulesError, UnknownVariantError
from navakankari.engine.game import Game, Side
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.sim.hands import JUMP_ORDERS, ScriptedHands

from ..core.clockwork import drive, run_until
from ..core.players import HAND
from ..core.session import Session
from ..core.status import StatusKind
from ..core.tracker import TrackerSettings
from .referee import judge_record

VARIANTS = ("nine-mens-morris", "navakankari", "navakankari-flying", "lasker",
            "six-mens-morris", "twelve-mens-morris", "nau-keti-keta")
STEPS = 300
"""Gestures a stream at most (it ends with its game): enough to play most games into their
moving and flying phases."""
NOISE = ("chatter", "slide", "wrong-lift", "removal", "fly", "stray", "wait")


@dataclass
class Figures:
    """What a fuzz run found; `seconds` is the time spent driving the session."""

    events: int = 0
    streams: int = 0
    actions: int = 0
    crashes: int = 0
    illegal: int = 0
    unrecoverable: int = 0
    skipped: int = 0  #: gestures the simulated hands could not make (not the session's doing)
    seconds: float = 0.0
    by_variant: dict[str, int] = field(default_factory=dict)
    first_failures: list[str] = field(default_factory=list)

    def failed(self, what: str) -> None:
        if len(self.first_failures) < 5:
            self.first_failures.append(what)

    def lines(self) -> list[str]:
        rate = self.events / self.seconds if self.seconds else 0.0
        out = [f"events: {self.events} in {self.streams} streams "
               f"({', '.join(f'{v} {n}' for v, n in self.by_variant.items())})",
               f"actions committed: {self.actions}",
               f"crashes: {self.crashes}",
               f"illegal commits: {self.illegal}",
               f"unrecoverable states: {self.unrecoverable}",
               f"gestures the simulated hands could not make (skipped): {self.skipped}",
               f"rate: {rate:,.0f} events/s ({self.seconds:.1f} s)"]
        out += [f"first failure: {f}" for f in self.first_failures]
        return out


def _noise(hands: ScriptedHands, game: Game, rng: random.Random, kind: str) -> None:
    """One thing that goes wrong on a real board, done to what the hands see."""
    board = game.board
    names = board.points
    occupied = sorted(hands.occupied)
    empty = [p for p in names if p not in hands.occupied]
    if kind == "chatter":
        hands.bounce(rng.choice(names), rng.randint(1, 12))
    elif kind == "slide" and occupied and empty:
        # A pebble slid over whatever lies between it and an empty point, then back.
        start, end = rng.choice(occupied), rng.choice(empty)
        middle = rng.sample([p for p in names if p not in (start, end)], rng.randint(1, 3))
        hands.slide([start, *middle, end])
        if rng.random() < 0.7:
            hands.wait(rng.uniform(0.0, 0.4)).slide([end, *reversed(middle), start])
    elif kind in ("wrong-lift", "removal") and occupied:
        # A pebble lifted that should not be (one of the mover's, or an opposing one taken
        # with no mill closed), held a while, put back or not.
        p = rng.choice(occupied)
        hands.lift(p).wait(rng.uniform(0.0, 1.5))
        if rng.random() < 0.8:
            hands.place(p)
    elif kind == "fly" and occupied and empty:
        a, b = rng.choice(occupied), rng.choice(empty)
        hands.lift(a).wait(rng.uniform(0.05, 0.5)).place(b).wait(rng.uniform(0.0, 1.0))
        if rng.random() < 0.8:
            hands.lift(b).wait(0.1).place(a)
    elif kind == "stray":
        p = rng.choice(names)
        (hands.lift if p in hands.occupied else hands.place)(p)
    hands.wait(rng.uniform(0.0, 2.0) if kind == "wait" else rng.uniform(0.0, 0.6))


def _legal(hands: ScriptedHands, game: Game, rng: random.Random) -> bool:
    """The next action of the game the session follows, done by hand (False: none fits what
    the board holds)."""
    actions = game.legal_actions()
    if not actions:
        return False
    action: Action = rng.choice(actions)
    board = game.board
    names = board.points
    empties = {names[p] for p in board.bits(action.empties)}
    fills = {names[p] for p in board.bits(action.fills)} | (
        {names[p] for p in action.path} - {names[action.origin]} if action.origin >= 0 else set())
    if not empties <= hands.occupied or fills & hands.occupied:
        return False
    if action.kind == ActionKind.MOVE and rng.random() < 0.3:
        # Slid along its line (or flown) instead of lifted and set down.
        hands.slide([names[action.origin], names[action.target]]).wait(hands.pause)
    else:
        hands.perform(board, action, order=rng.choice(JUMP_ORDERS))
    return True


def _put_right(hands: ScriptedHands, game: Game, now: float) -> ScriptedHands:
    """Hands that make the board what the game expects, from what it holds."""
    expected = set(game.board.names(game.occupancy))
    fix = ScriptedHands(hands.occupied, t=now + 0.1)
    for p in sorted(fix.occupied - expected):
        fix.lift(p).wait(0.05)
    for p in sorted(expected - fix.occupied):
        fix.place(p).wait(0.05)
    return fix


def stream(variant: str, seed: int, figures: Figures, settings: TrackerSettings) -> int:
    """One stream of gestures, each driven through the session as it is made (the hands
    follow the game the board shows, and put it right when they see a mistake, as a
    player following the lights does); returns the events it fed."""
    rules = preset(variant)
    rng = random.Random(seed)
    start_game = new_game(rules)
    start = start_game.board.names(start_game.occupancy)
    session = Session(rules, {Side.WHITE: HAND, Side.BLACK: HAND}, settings=settings,
                      occupied=start, auto_new_game=False, resume=False)
    hands = ScriptedHands(start, rng=rng, chatter=4, pause=rng.choice((0.3, 0.6, 1.0)))
    fed = 0
    now = 0.0
    where = f"{variant} seed {seed}"

    def feed(h: ScriptedHands) -> None:
        nonlocal fed, now
        fed += len(h.events)
        now = drive(session, h.events, now=now)
        h.events.clear()
        h.t = max(h.t, now)

    try:
        for _ in range(STEPS):
            game = session.game
            if game.outcome() is not None:
                break
            if not session.tracker.matches() and rng.random() < 0.5:
                fix = _put_right(hands, game, now)
                feed(fix)
                hands.occupied, hands.t = fix.occupied, fix.t
            else:
                try:
                    if rng.random() >= 0.7:
                        _noise(hands, game, rng, rng.choice(NOISE))
                    elif not _legal(hands, game, rng):
                        _noise(hands, game, rng, "wait")
                except ValueError:
                    # A gesture the simulated hands cannot make (a capture chain taken
                    # first that passes its own start): its edges so far are still made.
                    figures.skipped += 1
            feed(hands)
        game = session.game
        figures.actions += len(game.history)
        try:
            judge_record(rules, game.record())
        except (AssertionError, RulesError) as exc:
            figures.illegal += 1
            figures.failed(f"illegal commit, {where}: {exc}")
        feed(_put_right(hands, game, now))
        now = run_until(session, None, now)
        if not session.tracker.matches() or session.status.kind == StatusKind.MISMATCH:
            figures.unrecoverable += 1
            figures.failed(f"unrecoverable, {where}: {session.status.kind.value}")
    except Exception as exc:  # noqa: BLE001 - a crash of the session is what is counted
        # (only the session runs here: the gestures were made, and their errors caught, above)
        figures.crashes += 1
        figures.failed(f"crash, {where}: {type(exc).__name__}: {exc}")
    return fed


def to_stderr(text: str) -> None:
    """Where the progress bars go: standard error, at once (the figures go to `out`)."""
    sys.stderr.write(text)
    sys.stderr.flush()


def progress(done: int, total: int, started: float, out: Callable[[str], None],
             what: str = "events") -> None:
    """A progress bar on one line (rewritten in place)."""
    width = 30
    frac = min(1.0, done / total) if total else 1.0
    elapsed = time.perf_counter() - started
    rate = done / elapsed if elapsed else 0.0
    left = (total - done) / rate if rate else 0.0
    bar = "#" * round(frac * width) + "." * (width - round(frac * width))
    out(f"\r[{bar}] {frac * 100:5.1f} % {done:,}/{total:,} {what}, "
        f"{rate:,.{1 if rate < 10 else 0}f}/s, "
        f"{max(0.0, left):,.0f} s left ")


def fuzz(events: int, variants: Sequence[str] = VARIANTS, seed: int = 0,
         bar: Callable[[str], None] | None = None) -> Figures:
    """Streams until `events` sensor events were fed."""
    figures = Figures(by_variant={v: 0 for v in variants})
    settings = TrackerSettings()
    started = time.perf_counter()
    shown = 0.0
    k = 0
    while figures.events < events:
        variant = variants[k % len(variants)]
        fed = stream(variant, seed * 1_000_003 + k, figures, settings)
        figures.events += fed
        figures.by_variant[variant] += fed
        figures.streams += 1
        k += 1
        if bar is not None and time.perf_counter() - shown > 0.5:
            shown = time.perf_counter()
            progress(figures.events, events, started, bar)
    figures.seconds = time.perf_counter() - started
    if bar is not None:
        progress(figures.events, events, started, bar)
        bar("\n")
    return figures


def parse_variants(text: str) -> tuple[str, ...]:
    """A comma-separated list of preset names; ValueError names a wrong one (and the names
    there are)."""
    names = tuple(v.strip() for v in text.split(",") if v.strip())
    if not names:
        raise ValueError("no variant given")
    for name in names:
        try:
            preset(name)
        except UnknownVariantError as exc:
            raise ValueError(str(exc)) from None
    return names


def run(out: Callable[[str], None] = print, quick: bool = False, *, events: int | None = None,
        variants: Sequence[str] = VARIANTS, seed: int = 0, bar: bool = True) -> Figures:
    total = events if events is not None else (20_000 if quick else 1_000_000)
    out(f"fuzz: {total:,} events, variants {', '.join(variants)}, seed {seed}")
    figures = fuzz(total, variants, seed,
                   bar=to_stderr if bar else None)
    for line in figures.lines():
        out(line)
    return figures


def soak(out: Callable[[str], None], quick: bool, args: argparse.Namespace) -> None:
    """`navakankari bench fuzz [--events N] [--variants A,B] [--seed S]`."""
    try:
        variants = parse_variants(args.variants) if args.variants else VARIANTS
    except ValueError as exc:
        print(f"navakankari bench fuzz: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    run(out, quick, events=args.events, variants=variants, seed=args.seed)

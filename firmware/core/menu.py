"""The on-board menu: choose the game, the players and who starts with pebbles and LEDs only.

A pure state machine with injected time. It is shown when no game is in play (at start-up
with nothing to resume, after a game ends and the board is emptied, after the clear-board
gesture) and fed the tracker's settled occupancy, so chatter, knocks and slides are
filtered before it sees anything. A choice is made the way the clear-board gesture is
confirmed: a pebble held alone on a lit point for `hold` seconds, then lifted (and the board
left empty for `lift` seconds, so a pebble slid away to another point chooses nothing).

Steps: the variant (with "the same as last time", "take back the last move" and "LED
brightness" beside it, which leads to the brightness values and speech on or off) -> who
plays white -> who plays black -> the help each side played by hand gets (its assistance,
players.ASSIST_LEVELS; one step per hand side, skipped for the computer and remote players)
-> who starts (white, black or a toss: a light runs round the board and stops on a colour).
Every step but the first has a "back" point. The layout of each board comes from its geometry (`layout`), so the 24- and
19-point boards and any other board get one without tables.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar
from enum import Enum

from navakankari.engine.boards import Board
from navakankari.engine.player_spec import ADAPTIVE_COMPUTER
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.firmware.i18n.catalogs import LANGUAGES

from .errors import check_seconds
from .gesture import HoldGesture
from .players import ASSIST_LEVELS, DEFAULT_ASSIST, assist_words
from .tracker import confirm_point

log = logging.getLogger(__name__)

BRIGHTNESS_VALUES: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8, 1.0)
"""LED brightness choices, as fractions of the wiring profile's brightness cap."""


def format_brightness(level: float) -> str:
    """A brightness value as kept in the store (`parse_brightness` reads it back)."""
    return repr(float(level))


def parse_brightness(text: str) -> float:
    """A kept brightness value; ValueError unless it is a number above 0 and at most 1 (a
    fraction of the cap), so a damaged value is never sent to the LEDs."""
    try:
        level = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"the LED brightness {text!r} is not a number") from None
    if not 0.0 < level <= 1.0:  # also refuses nan
        raise ValueError(f"the LED brightness {text!r} is not a fraction of the cap above 0 "
                         "and at most 1")
    return level


STARTERS = ("white", "black", "toss")
"""The choices of the step "who starts"."""


def starter_words(value: str, tr: Translator = ENGLISH) -> str:
    """A choice of the step "who starts" in words: `white starts`, `a toss decides`."""
    if value == "white":
        return tr.gettext("white starts")
    return tr.gettext("black starts") if value == "black" else tr.gettext("a toss decides")


class Step(str, Enum):
    VARIANT = "variant"
    WHITE = "white"
    BLACK = "black"
    ASSIST = "assist"  #: the help a hand side gets (which side: `View.assisting`)
    STARTER = "starter"
    TOSS = "toss"
    BRIGHTNESS = "brightness"
    SPEECH = "speech"
    LANGUAGE = "language"


class Kind(str, Enum):
    """What a lit point does when chosen."""

    VARIANT = "variant"
    PLAYER = "player"
    ASSIST = "assist"  #: an assistance level
    STARTER = "starter"
    BRIGHTNESS_VALUE = "brightness-value"  #: one of the brightness values (BRIGHTNESS_VALUES)
    SPEECH = "speech"  #: spoken announcements on or off
    LANGUAGE = "language"  #: the board's language
    SAME = "same"  #: the same game as last time, at once
    BACK = "back"
    TAKEBACK = "takeback"  #: reopen the last game, its last move taken back
    BRIGHTNESS = "brightness"  #: go to the brightness step
    SPEECH_STEP = "speech-step"  #: turn speech on and go to the speech step
    LANGUAGE_STEP = "language-step"  #: go to the language step


@dataclass(frozen=True)
class Layout:
    """Where a board shows the menu: four fixed points and the slots choices fill in order."""

    same: str  #: the centre (the clear-board gesture's confirm point)
    back: str  #: straight below it
    takeback: str  #: nearest on its left
    brightness: str  #: nearest on its right
    slots: tuple[str, ...]  #: every other point in reading order, from the top left
    speech: str = ""  #: straight above the centre ("": speech is a choice of the brightness)
    language: str = ""  #: nearest on the right after the brightness point


def layout(board: Board, own_steps: bool = True) -> Layout:
    """The menu's points on `board`, from its coordinates alone; `own_steps`: speech and
    the language have points of their own (a menu recorded before they had offers them on
    the brightness step)."""
    coords = dict(zip(board.points, board.coordinates))
    same = confirm_point(board)
    sx, sy = coords[same]

    def nearest(cands: Iterable[str]) -> str:
        return min(cands, key=lambda p: ((coords[p][0] - sx) ** 2 + (coords[p][1] - sy) ** 2,
                                         -coords[p][1], coords[p][0]))

    back = nearest(p for p in board.points if coords[p][0] == sx and coords[p][1] < sy)
    takeback = nearest(p for p in board.points if coords[p][0] < sx)
    brightness = nearest(p for p in board.points if coords[p][0] > sx)
    fixed = {same, back, takeback, brightness}
    speech = language = ""
    if own_steps:
        speech = nearest(p for p in board.points if coords[p][0] == sx and coords[p][1] > sy)
        language = nearest(p for p in board.points if coords[p][0] > sx and p != brightness)
        fixed |= {speech, language}
    slots = tuple(sorted((p for p in board.points if p not in fixed),
                         key=lambda p: (-coords[p][1], coords[p][0])))
    return Layout(same, back, takeback, brightness, slots, speech, language)


@dataclass(frozen=True)
class GameChoice:
    """A game to start: the variant, who plays each side and which side moves first.

    Each player keeps the colour chosen for it; "who starts" (or the toss) only decides
    which colour makes the first move, as families decide who begins by lot with each
    keeping their own pebbles."""

    variant: str
    white: str  #: a player spec: "hand", "computer:3", "remote"
    black: str
    first: str = "white"  #: the side that moves first: "white" or "black"

    def __post_init__(self) -> None:
        if self.first not in ("white", "black"):
            raise ValueError(f"the side that moves first is white or black, not {self.first!r}")


@dataclass(frozen=True)
class Chosen:
    """What the menu decided; the session carries it out."""

    kind: Kind  #: SAME or STARTER: start `game`; TAKEBACK; BRIGHTNESS_VALUE: set `brightness`;
    #: SPEECH: turn spoken announcements on or off (`speech`); LANGUAGE: speak `language`
    game: GameChoice | None = None
    brightness: float = 0.0
    speech: bool = False
    language: str = ""


@dataclass(frozen=True)
class Choice:
    point: str
    kind: Kind
    value: str  #: a variant name, a player spec, "white"/"black"/"toss", a level
    label: str  #: in words, for the page


@dataclass(frozen=True)
class Toss:
    """The running light: it starts at `start`, moves one point of `ring` every `step`
    seconds for `steps` steps, in the colours white, black, white, ...; it stops on the
    colour of `result`, which is shown for `pause` seconds more."""

    ring: tuple[str, ...]
    steps: int
    step: float
    start: float
    result: str
    pause: float

    @property
    def end(self) -> float:
        return self.start + self.steps * self.step + self.pause


@dataclass(frozen=True)
class MenuSettings:
    """Timing of the menu's gestures, in seconds."""

    hold: float = 1.0  #: a pebble alone on a lit point this long, then lifted, chooses it
    lift: float = 0.3  #: ... and the board then empty this long (a slide is no lift)
    toss_step: float = 0.08
    toss_laps: int = 2  #: whole rounds the toss light runs before it may stop
    toss_pause: float = 1.5
    #: The help step (each hand side's assistance). A recording's menu line written before
    #: the step existed reads as False, so it replays through the menu it was made with.
    assist: bool = True
    #: The adaptive computer among the players (after the levels); False as `assist` is.
    adaptive: bool = True
    #: Speech and the language as steps of their own, at points of their own; False (a
    #: recording's menu line from before them): both are choices of the brightness step.
    speech_step: bool = True

    #: The range of each timing, stated once: the configuration's `game.menu_hold` and
    #: `replay --menu-hold` are checked against it. A hold shorter than 0.2 s (the tracker's
    #: settle) would let a pebble knocked onto a lit point and off again choose it.
    SECONDS: ClassVar[dict[str, tuple[float, float]]] = {
        "hold": (0.2, 10.0), "lift": (0.0, 10.0), "toss_step": (0.0, 10.0),
        "toss_pause": (0.0, 10.0)}

    def __post_init__(self) -> None:
        for name, (low, high) in self.SECONDS.items():
            check_seconds(f"menu {name}", getattr(self, name), low, high)
        if self.toss_step <= 0 or not isinstance(self.toss_laps, int) or self.toss_laps < 1:
            raise ValueError("menu toss_step must be > 0 and toss_laps a whole number >= 1")


@dataclass(frozen=True)
class View:
    """What the menu shows now (the lights and the page read it)."""

    step: Step
    choices: tuple[Choice, ...]
    current: tuple[str, ...] = ()  #: points of last time's values in this step
    held: str = ""  #: the lit point a pebble is held on
    since: float = 0.0  #: when the held pebble settled
    armed: bool = False  #: held long enough: lifting it chooses
    toss: Toss | None = None
    picked: tuple[str, ...] = ()  #: choices made so far, in words
    assisting: str = ""  #: ASSIST: the side ("white", "black") whose help is chosen

    @property
    def name(self) -> str:
        """The step as the status and the page name it: "assist-white" for white's help."""
        return step_name(self.step, self.assisting)


def step_name(step: Step, assisting: str = "") -> str:
    return f"{step.value}-{assisting}" if step == Step.ASSIST else step.value


@dataclass
class _State:
    step: Step = Step.VARIANT
    variant: str = ""
    white: str = ""
    black: str = ""
    picked: list[str] = field(default_factory=list)
    assisting: str = ""
    assist: bool = True  #: the help step is offered

    def sequence(self) -> list[tuple[Step, str]]:
        """The steps to a game with the players chosen so far: a help step per hand side."""
        hands = [(Step.ASSIST, side) for side, spec in (("white", self.white),
                                                         ("black", self.black))
                 if self.assist and spec.partition(":")[0] == "hand"]
        return [(Step.VARIANT, ""), (Step.WHITE, ""), (Step.BLACK, ""), *hands,
                (Step.STARTER, "")]

    def go(self, by: int) -> None:
        """To the next step (by 1) or the one before (by -1) in `sequence`."""
        seq = self.sequence()
        here = seq.index((self.step, self.assisting if self.step == Step.ASSIST else ""))
        self.step, self.assisting = seq[here + by]


class Menu:
    """One visit to the menu. `see(occupied, now)` whenever the settled occupancy changes,
    `tick(now)` at `deadline()`; both return a `Chosen` once something is decided."""

    def __init__(self, board: Board, variants: Sequence[str], players: Sequence[str],
                 last: GameChoice | None, *, can_takeback: bool = False,
                 settings: MenuSettings = MenuSettings(), rng: random.Random | None = None,
                 occupied: Iterable[str] = (), now: float = 0.0) -> None:
        if not variants:
            raise ValueError("the menu needs at least one variant this board can play")
        self.board = board
        self.layout = layout(board, settings.speech_step)
        self.variants = tuple(variants)
        self.players = tuple(players)
        need = max(len(self.variants), len(self.players),
                   len(LANGUAGES) if settings.speech_step else
                   len(BRIGHTNESS_VALUES) + 2 + len(LANGUAGES),
                   len(ASSIST_LEVELS), 3)
        if need > len(self.layout.slots):
            raise ValueError(f"the {board.name} board has {len(self.layout.slots)} menu points "
                             f"for choices; {need} are needed")
        self.last = last
        self.can_takeback = can_takeback
        self.settings = settings
        self.rng = rng or random.Random()
        self._s = _State(assist=settings.assist)
        self._gesture = HoldGesture(settings.hold, settings.lift, occupied=frozenset(occupied),
                                    now=now)
        self._toss: Toss | None = None
        self.tr: Translator = ENGLISH  #: the language of the choices' words
        self.language = ""  #: the board's language now, lit as the current one in its step
        log.info("menu: %s", self._s.step.value)

    # -- what is lit ---------------------------------------------------------------------------
    def choices(self) -> tuple[Choice, ...]:
        s, lay, tr = self._s, self.layout, self.tr
        out: list[Choice] = []
        if s.step == Step.VARIANT:
            out += [Choice(p, Kind.VARIANT, v, variant_label(v, tr))
                    for p, v in zip(lay.slots, self.variants)]
            if self.last is not None and self.last.variant in self.variants:
                last = self.last
                out.append(Choice(lay.same, Kind.SAME, "same", tr.gettext(
                    "the same as last time ({variant}, white {white}, black {black})").format(
                        variant=variant_label(last.variant, tr),
                        white=player_words(last.white, tr), black=player_words(last.black, tr))))
            if self.can_takeback:
                out.append(Choice(lay.takeback, Kind.TAKEBACK, "takeback",
                                  tr.gettext("take back the last move")))
            if lay.speech:
                out += [Choice(lay.brightness, Kind.BRIGHTNESS, "brightness",
                               tr.gettext("LED brightness")),
                        Choice(lay.speech, Kind.SPEECH_STEP, "speech",
                               tr.gettext("speech (turns it on)")),
                        Choice(lay.language, Kind.LANGUAGE_STEP, "language",
                               tr.gettext("language"))]
            else:
                out.append(Choice(lay.brightness, Kind.BRIGHTNESS, "brightness",
                                  tr.gettext("LED brightness, speech and language")))
        elif s.step in (Step.WHITE, Step.BLACK):
            out += [Choice(p, Kind.PLAYER, v, player_words(v, tr))
                    for p, v in zip(lay.slots, self.players)]
        elif s.step == Step.ASSIST:
            out += [Choice(p, Kind.ASSIST, str(n), tr.gettext("help: {level}").format(
                        level=assist_words(n, tr)))
                    for p, n in zip(lay.slots, range(len(ASSIST_LEVELS)))]
        elif s.step == Step.STARTER:
            out += [Choice(p, Kind.STARTER, v, starter_words(v, tr))
                    for p, v in zip(lay.slots, STARTERS)]
        elif s.step == Step.BRIGHTNESS:
            out += [Choice(p, Kind.BRIGHTNESS_VALUE, f"{v:g}", f"{round(v * 100)} %")
                    for p, v in zip(lay.slots, BRIGHTNESS_VALUES)]
            if not lay.speech:
                out += self._speech_choices(lay.slots[len(BRIGHTNESS_VALUES):])
                out += self._language_choices(lay.slots[len(BRIGHTNESS_VALUES) + 2:])
        elif s.step == Step.SPEECH:
            out += self._speech_choices(lay.slots)
        elif s.step == Step.LANGUAGE:
            out += self._language_choices(lay.slots)
        if s.step not in (Step.VARIANT, Step.TOSS):
            out.append(Choice(lay.back, Kind.BACK, "back", tr.gettext("back")))
        return tuple(out)

    def _speech_choices(self, points: Sequence[str]) -> list[Choice]:
        on, off = points[:2]
        return [Choice(on, Kind.SPEECH, "on", self.tr.gettext("speech on")),
                Choice(off, Kind.SPEECH, "off", self.tr.gettext("speech off"))]

    @staticmethod
    def _language_choices(points: Sequence[str]) -> list[Choice]:
        """Each language by its own name in its own script, whatever the board speaks now."""
        return [Choice(p, Kind.LANGUAGE, code, name)
                for p, (code, name) in zip(points, LANGUAGES.items())]

    def _current(self, choices: tuple[Choice, ...]) -> tuple[str, ...]:
        if self._s.step == Step.LANGUAGE:
            return tuple(c.point for c in choices
                         if c.kind == Kind.LANGUAGE and c.value == self.language)
        last = self.last
        if last is None:
            return ()
        want = {Step.VARIANT: last.variant, Step.WHITE: last.white,
                Step.BLACK: last.black}.get(self._s.step)
        if self._s.step == Step.ASSIST:  # last time's help of this side, if it was a hand
            kind, _, level = getattr(last, self._s.assisting).partition(":")
            want = (level or str(DEFAULT_ASSIST)) if kind == "hand" else None
        return tuple(c.point for c in choices
                     if c.kind in (Kind.VARIANT, Kind.PLAYER, Kind.ASSIST) and c.value == want)

    def view(self, now: float) -> View:
        choices = self.choices()
        lit = {c.point for c in choices}
        gesture = self._gesture
        held = gesture.held if gesture.held in lit else ""
        if gesture.armed and not gesture.occupied:
            # Lifted, the board empty for `lift` seconds before the choice counts: the choice
            # stays lit as armed, so the step's other choices do not flicker back meanwhile.
            held = gesture.armed
        return View(self._s.step, choices, self._current(choices), held, gesture.since,
                    bool(gesture.armed), self._toss, tuple(self._s.picked), self._s.assisting)

    @property
    def step(self) -> Step:
        return self._s.step

    @property
    def step_name(self) -> str:
        """The step by name, the help step with its side (`View.name`)."""
        return step_name(self._s.step, self._s.assisting)

    def so_far(self) -> dict[str, str]:
        """The choices made on the way to a game, in the order made: "variant" (a preset
        name), then "white" and "black" (player specs); a step gone back over is not made."""
        s = self._s
        made = {Step.WHITE: 1, Step.BLACK: 2, Step.ASSIST: 3, Step.STARTER: 3,
                Step.TOSS: 3}.get(s.step, 0)
        return dict(list(zip(("variant", "white", "black"), (s.variant, s.white, s.black)))[:made])

    # -- inputs --------------------------------------------------------------------------------
    def see(self, occupied: Iterable[str], now: float) -> Chosen | None:
        """The settled occupancy changed."""
        self._gesture.see(frozenset(occupied), now)
        return None

    def tick(self, now: float) -> Chosen | None:
        if self._toss is not None:
            if now >= self._toss.end:
                return self._finish(self._toss.result)
            return None
        armed, point = self._gesture.tick(now, self._lit)
        if armed:
            log.info("menu: %s held long enough; lift it to choose", self._gesture.armed)
        return self._choose(point, now) if point else None

    def deadline(self) -> float | None:
        if self._toss is not None:
            return self._toss.end
        return self._gesture.deadline(self._lit)

    def _lit(self, point: str) -> bool:
        return point in {c.point for c in self.choices()}

    # -- choosing ------------------------------------------------------------------------------
    def _choose(self, point: str, now: float) -> Chosen | None:
        choice = next((c for c in self.choices() if c.point == point), None)
        if choice is None:  # pragma: no cover - only lit points are armed
            return None
        s = self._s
        log.info("menu: %s chose %s", point, choice.label)
        if choice.kind == Kind.SAME:
            assert self.last is not None
            return Chosen(Kind.SAME, self.last)
        if choice.kind == Kind.TAKEBACK:
            return Chosen(Kind.TAKEBACK)
        if choice.kind == Kind.BRIGHTNESS:
            s.step = Step.BRIGHTNESS
        elif choice.kind == Kind.SPEECH_STEP:
            # Speech comes on as its step opens, so a player who cannot see the lights hears
            # it, and its choices, at once; "speech off" there turns it off again.
            s.step = Step.SPEECH
            log.info("menu: %s", s.step.value)
            return Chosen(Kind.SPEECH, speech=True)
        elif choice.kind == Kind.LANGUAGE_STEP:
            s.step = Step.LANGUAGE
        elif choice.kind == Kind.BRIGHTNESS_VALUE:
            s.step = Step.VARIANT
            return Chosen(Kind.BRIGHTNESS_VALUE, brightness=float(choice.value))
        elif choice.kind == Kind.SPEECH:
            s.step = Step.VARIANT
            return Chosen(Kind.SPEECH, speech=choice.value == "on")
        elif choice.kind == Kind.LANGUAGE:
            s.step = Step.VARIANT
            return Chosen(Kind.LANGUAGE, language=choice.value)
        elif choice.kind == Kind.BACK:
            if s.step in (Step.WHITE, Step.BLACK, Step.ASSIST, Step.STARTER):
                s.picked = s.picked[:-1]  # the choice that led to this step is undone
            if s.step in (Step.BRIGHTNESS, Step.SPEECH, Step.LANGUAGE):
                s.step = Step.VARIANT
            else:
                s.go(-1)
            if s.step == Step.ASSIST:  # its choice is undone too: the side is a hand again
                setattr(s, s.assisting, "hand")
        elif choice.kind == Kind.VARIANT:
            s.variant, s.step = choice.value, Step.WHITE
            s.picked = [choice.label]
        elif choice.kind == Kind.PLAYER:
            if s.step == Step.WHITE:
                s.white, s.step = choice.value, Step.BLACK
                s.picked.append(self.tr.gettext("white {choice}").format(choice=choice.label))
            else:
                s.black = choice.value
                s.picked.append(self.tr.gettext("black {choice}").format(choice=choice.label))
                s.go(1)
        elif choice.kind == Kind.ASSIST:
            side = s.assisting
            setattr(s, side, "hand" if choice.value == str(DEFAULT_ASSIST)
                    else f"hand:{choice.value}")
            s.picked.append((self.tr.gettext("white {choice}") if side == "white" else
                             self.tr.gettext("black {choice}")).format(choice=choice.label))
            s.go(1)
        elif choice.kind == Kind.STARTER:
            if choice.value != "toss":
                return self._finish(choice.value)
            self._start_toss(now)
        log.info("menu: %s", s.step.value)
        return None

    def _start_toss(self, now: float) -> None:
        ring = self.layout.slots
        result = self.rng.choice(("white", "black"))
        steps = self.settings.toss_laps * len(ring) + self.rng.randrange(len(ring))
        if ("white", "black")[steps % 2] != result:
            steps += 1
        self._toss = Toss(ring, steps, self.settings.toss_step, now, result,
                          self.settings.toss_pause)
        self._s.step = Step.TOSS
        log.info("menu: a toss; %s starts", result)

    def _finish(self, starter: str) -> Chosen:
        """Start the game chosen: each side keeps the player chosen for it, and `starter`
        (chosen, or the toss's) moves first."""
        s = self._s
        self._toss = None
        return Chosen(Kind.STARTER, GameChoice(s.variant, s.white, s.black, starter))


def playable(points: Iterable[str]) -> tuple[str, ...]:
    """Every preset (read at call time, so new ones appear) whose board's points are all
    among `points` (a wiring profile's sensors)."""
    from navakankari.engine.boards import BOARDS
    from navakankari.engine.presets import PRESETS

    have = set(points)
    return tuple(name for name, rules in PRESETS.items() if set(BOARDS[rules.board].points) <= have)


def toss_index(start: float, step: float, steps: int, now: float) -> int:
    """How many points the toss light has run at `now` (it stops after `steps`); the light
    is on white's colour at even counts, black's at odd ones."""
    return max(0, min(steps, int((now - start) / step + 1e-9)))  # a step's own time counts


def player_words(spec: str, tr: Translator = ENGLISH) -> str:
    """A player spec as the menu and the page say it."""
    if spec == "hand":
        return tr.gettext("a hand on the board")
    if spec.startswith("hand:"):
        return tr.gettext("a hand on the board (help: {level})").format(
            level=assist_words(int(spec[5:]), tr))
    if spec == "remote":
        return tr.gettext("remote (the companion)")
    if spec == "online":
        return tr.gettext("someone at another board (online)")
    if spec == str(ADAPTIVE_COMPUTER):
        return tr.gettext("the computer, adapting its level to you")
    return tr.gettext("the computer at level {level}").format(level=spec.partition(":")[2])


def variant_label(name: str, tr: Translator = ENGLISH) -> str:
    """A variant as players call it: Navakankari by the game's own name where the language
    is spoken, the others by their names in the language's script; a variant without a
    name here by its preset name."""
    # Translators: each variant's name as the menu shows it. Navakankari is the game of nine
    # pebbles a side, by its name where the language is spoken (Navkakri in Gujarati, Saalu
    # Mane Ata in Kannada, Daadi in Telugu); the others may keep their names in your script.
    names = {
        "navakankari": tr.pgettext("variant", "navakankari"),
        "navakankari-strict": tr.pgettext("variant", "navakankari-strict"),
        "navakankari-flying": tr.pgettext("variant", "navakankari-flying"),
        "nine-mens-morris": tr.pgettext("variant", "nine-mens-morris"),
        "twelve-mens-morris": tr.pgettext("variant", "twelve-mens-morris"),
        "morabaraba": tr.pgettext("variant", "morabaraba"),
        "lasker": tr.pgettext("variant", "lasker"),
        "six-mens-morris": tr.pgettext("variant", "six-mens-morris"),
        "nau-keti-keta": tr.pgettext("variant", "nau-keti-keta"),
    }
    return names.get(name, name)


def player_specs(max_level: int, online: bool = False, adaptive: bool = True
                 ) -> tuple[str, ...]:
    """Who may play a side, in the order the menu lights them; `online` where a broker is
    configured (the board then invites, and the page shows the code to read out);
    `adaptive`: the computer whose level follows the person's results, after the levels
    (a recording made before it was offered replays without it)."""
    return ("hand", *(f"computer:{n}" for n in range(1, max_level + 1)),
            *((str(ADAPTIVE_COMPUTER),) if adaptive else ()), "remote",
            *(("online",) if online else ()))

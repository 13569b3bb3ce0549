"""What the board says aloud, decided from what the session reports: pure, no clock, no sound.

A player who cannot see the lights hears what the lights show: the move just played, a mill
and the pebble to take, whose turn, the computer's move to carry out (said again until it
is), where a lifted pebble may go (at assistance 3 how good each point is), what to put
right after a mistake, the help asked for, the menu's step and its choices, a sensor fault.
Most of it is the status line itself (wording.status_text), which every language already
has; what only an ear needs (the move just played, each destination's quality) has its own
sentences here. Each sentence is one message of the catalogs with named places.

The daemon hands each `Utterance` to its speech thread (daemon/speech.py), which says them in
turn: one marked `interrupt` cuts short what is being said, because the hands acted since.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.game import Game, Side
from navakankari.engine.hint_words import side_words
from navakankari.engine.translator import ENGLISH, Translator

from .status import Status, StatusKind
from .wording import status_text

if TYPE_CHECKING:
    from .update import Update  # the session's report (only read here)

REPEAT = 8.0
"""Seconds of silence after which the computer's move, not yet carried out, is said again."""


@dataclass(frozen=True)
class Utterance:
    """One thing to say, whole sentences in one language (a catalog's code: "en", "gu")."""

    text: str
    language: str
    interrupt: bool = False  #: cut short what is being said, drop what waits
    repeat: float = 0.0  #: say it again after this many seconds of silence (0: once)
    topic: str = ""  #: a waiting utterance of the same topic is replaced by this one


def _points(points: tuple[str, ...] | list[str]) -> str:
    return ", ".join(points)


def played_words(action: Action, side: Side, tr: Translator = ENGLISH) -> str:
    """The action just played, as a sentence: `White placed a pebble on d6.`"""
    who = side_words(side, tr)
    if action.kind is ActionKind.PLACE:
        # Translators: said aloud after each action; {side} is "white" or "black" as
        # translated, the points are named as on the board (d6).
        return tr.gettext("{side} placed a pebble on {point}.").format(
            side=who, point=action.target_name)
    if action.kind is ActionKind.MOVE:
        return tr.gettext("{side} moved from {origin} to {target}.").format(
            side=who, origin=action.origin_name, target=action.target_name)
    if action.kind is ActionKind.REMOVE:
        return tr.gettext("{side} took the pebble on {point}.").format(
            side=who, point=action.target_name)
    taken = action.jumped_names
    return tr.ngettext("{side} jumped from {origin} to {target} and took the pebble on {points}.",
                       "{side} jumped from {origin} to {target} and took the pebbles on {points}.",
                       len(taken)).format(side=who, origin=action.origin_name,
                                          target=action.target_name, points=_points(taken))


def quality_words(status: Status, tr: Translator = ENGLISH) -> str:
    """Each destination of the lifted pebble by how good it is, best first:
    `Good moves: d6, d7. A mistake: f6.` Empty without the quality (assistance below 3)."""
    where = set(status.destinations)
    classes: dict[str, list[str]] = {}
    for point, quality in status.quality:
        if point in where:
            classes.setdefault(quality, []).append(point)
    # Translators: said aloud when a pebble is lifted, at assistance 3: how good each point the
    # pebble may go to is; {points} is a list of points (d6, e5).
    words = {
        "keeps": lambda n: tr.ngettext("A good move: {points}.", "Good moves: {points}.", n),
        "worse": lambda n: tr.ngettext("A weaker move: {points}.", "Weaker moves: {points}.", n),
        "drops": lambda n: tr.ngettext("A mistake: {points}.", "Mistakes: {points}.", n),
        "loses": lambda n: tr.ngettext("This loses the game: {points}.",
                                       "These lose the game: {points}.", n),
    }
    return " ".join(words[q](len(classes[q])).format(points=_points(classes[q]))
                    for q in words if q in classes)


def problem_words(problem: str, tr: Translator = ENGLISH) -> str:
    """A problem that stops play (the computer cannot play, the LEDs cannot be written)."""
    return tr.gettext("A problem: {problem}").format(problem=problem)


def far_board_words(online: bool, tr: Translator = ENGLISH) -> str:
    """The board far away, in an online game, gone or back."""
    if online:
        return tr.gettext("The other board is back.")
    return tr.gettext("The other board is offline: its moves will come when it is back.")


class Announcer:
    """Turns each report of the session into what to say (or nothing), remembering what it
    said last so that a status repeated by the session is not said twice. `language` names
    the catalog `tr` reads."""

    def __init__(self, language: str = "en", tr: Translator = ENGLISH, *,
                 repeat: float = REPEAT) -> None:
        self.language = language
        self.tr = tr
        self.repeat = repeat
        self._said: tuple[object, ...] | None = None  #: what the last status said stood for
        self._quality: tuple[tuple[str, str], ...] = ()
        self._advice = ""

    def hear(self, game: Game, status: Status, actions: tuple[str, ...] = (), *,
             far_away: str = "", level: int | None = None) -> Utterance | None:
        """What to say after the session reported `status` on `game`, `actions` (notation)
        being just played (`level`: the adaptive computer's, as `status_text` takes it).
        None: nothing new to say."""
        tr = self.tr
        sentences = []
        if actions:
            played = game.history[-len(actions):] if len(game.history) >= len(actions) else []
            mover = _mover(game)
            sentences += [_sentence(played_words(a, mover, tr), self.language) for a in played]
        key = _spoken(status)
        status_new = key != self._said
        if status_new and (actions or _worth_saying(status, self._said)):
            sentences.append(_sentence(status_text(game, status, far_away, tr, level=level),
                                       self.language))
        self._said = key
        quality = status.quality if status.kind is StatusKind.IN_PROGRESS and status.lifted else ()
        if quality and (status_new or quality != self._quality):  # the advice may come later
            sentences.append(quality_words(status, tr))
        self._quality = quality
        if status.advice and status.advice != self._advice:
            sentences.append(_sentence(status.advice, self.language))
        self._advice = status.advice
        sentences = [s for s in sentences if s]
        if not sentences:
            return None
        executing = status.kind is StatusKind.EXECUTING
        return Utterance(" ".join(sentences), self.language,
                         interrupt=not executing and status.kind is not StatusKind.THINKING,
                         repeat=self.repeat if executing else 0.0,
                         topic=status.kind.value)

    def hear_update(self, game: Game, update: Update, *, far_away: str = "",
                    level: int | None = None) -> Utterance | None:
        """`hear` a session's report: its actions are played ones only when committed (a
        forced update carries the actions to carry out, which its status says)."""
        played = update.actions if update.reason == "actions" else ()
        return self.hear(game, update.status, played, far_away=far_away, level=level)

    def problem(self, problem: str) -> Utterance:
        return Utterance(problem_words(problem, self.tr), self.language, topic="problem")

    def far_board(self, online: bool) -> Utterance:
        return Utterance(far_board_words(online, self.tr), self.language, topic="far-board")

    def way_in(self, status: Status) -> Utterance | None:
        """How to turn speech on, while the menu shows its point for it (None otherwise): the
        one sentence a board with speech off says, for a player who cannot see the lights."""
        point = next((p for p, kind, _ in status.choices if kind == "speech-step"), None)
        if status.kind is not StatusKind.MENU or point is None:
            return None
        return Utterance(self.tr.gettext(
            "Speech is off. To hear the board, hold a pebble alone on {point}, just above the "
            "centre, for {seconds} s, then lift it.").format(
                point=point, seconds=f"{status.confirm_hold:g}"), self.language, topic="way-in")


def _mover(game: Game) -> Side:
    """The side that played the last action: a removal owed stays with it."""
    return game.turn if game.pending_removals else game.turn.other


FULL_STOP = {"hi": "।", "bn": "।"}
"""The sentence's end in a language that does not end it with ".": Hindi's and Bengali's
danda."""


def _sentence(text: str, language: str = "en") -> str:
    """A status line said as a sentence: capitalised where the script has capitals, ended
    as the language ends one."""
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", "।")) else text + FULL_STOP.get(language, ".")


def _spoken(status: Status) -> tuple[object, ...]:
    """What of a status the words stand for: a hold's progress on a menu point changes the
    status, not what is worth saying again (only its arming is); nor does the computer's
    move partly carried out (its words name the move, which is said again until done)."""
    carrying = status.kind is StatusKind.EXECUTING
    hands = () if carrying else (status.lifted, status.destinations, status.captures)
    return (status.kind, status.turn, *hands,
            status.takeable, status.owed, status.forced, status.steps, status.reason, status.outcome,
            status.menu_step, status.choices, status.picked, status.armed,
            status.confirm_point if status.kind is StatusKind.CLEARING else "",
            status.faulty, status.asking)


def _worth_saying(status: Status, before: tuple[object, ...] | None) -> bool:
    """A pebble set back where it was lifted from ends in the status it began with: that
    needs no words (the lift did)."""
    came_back = before is not None and before[0] is StatusKind.IN_PROGRESS
    return not (status.kind in (StatusKind.IDLE, StatusKind.THINKING) and came_back)

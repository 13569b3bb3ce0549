"""Assistance: what the board teaches the side to act, by its level (players.ASSIST_LEVELS).

0 none (only mistakes to fix), 1 the legal moves (the default), 2 the opponent's threats,
3 the quality of each destination on lifting a pebble (of each free point while placing)
and a warning after a blunder, 4 the best move on request. A computer side has none.

The judging (engine/hint.py) takes a search's time, so it never runs in the session: the
session asks for advice on a position (`AdviceRequest`), the daemon has an `Advisor`
(engine/advice.py) answer it off its loop (the same way the computer's turn is chosen), and the session takes the
answer if the game is still there. The advice is asked for as soon as a side that gets
help is to act, or earlier, while the hands carry out the computer's move (the position
after it is known then), so it is mostly ready before a pebble is lifted. The `Teacher` then adds
what the advice says to the tracker's status, which the lights and the page draw: pure,
time passed in.

A blunder is taken back on the board by putting its pebbles back as they stood before it (a
placed pebble lifted off, a moved one set back), until the next action is played: the board
then matches the position before the blunder, which no other action can make it do.

Best move on request, on the board: lift one of the opponent's pebbles and set it back on
its point within HINT_GESTURE seconds, however quickly. Outside a removal (when the board asks
for exactly that, and the teacher does not listen) lifting an opponent's pebble is never part
of a legal action, so play cannot make this gesture by accident. While the pebble is up (and
for HINT_GESTURE seconds) the board acknowledges the request on its point (`Status.asking`)
instead of calling it a mistake; a pebble kept up longer is a mistake to put right, as any.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace

from navakankari.engine.actions import Action, ActionKind
from navakankari.engine.advice import QUALITY, Advice, AdviceRequest
from navakankari.engine.game import Game, Side
from navakankari.engine.hint import Judgement
from navakankari.engine.hint_words import side_words
from navakankari.engine.translator import ENGLISH, Translator

from .players import PlayerSpec
from .status import MismatchReason, Status, StatusKind

log = logging.getLogger(__name__)

THREATS = 2  #: the assistance level from which the opponent's threats are shown
#: QUALITY (engine/advice.py): ... each destination's quality, and a blunder's warning
BEST = 4  #: ... the best move on request

BLUNDER_SECONDS = 4.0
"""How long a blunder's pebble blinks; the page keeps the words until the game moves on."""
REPLY_WAITS = 2.0
"""Seconds a blunder's warning is shown before the other side's reply (the computer's, a
remote player's) is lit over it: the warning is seen, and the hand can take the blunder back
first, before the reply's lights take its place."""
ONLINE_TAKEBACK = "to try again, ask the other player to take it back"
"""A blunder's offer in an online game, where the board cannot take a move back alone."""
HINT_GESTURE = 3.0
"""Seconds within which an opponent's pebble lifted must be set back to ask for the best
move."""
HINTS_PER_TURN = 1
"""Best moves a side may ask for per turn (the daemon's configuration can change it)."""


@dataclass(frozen=True)
class _Shown:
    """A blunder's warning or a best move asked for: its points and words; for a blunder,
    where the game stood before it (its ply and the points then occupied)."""

    ply: int
    points: tuple[str, ...]
    words: str
    until: float = 0.0
    before: int = -1
    occupied: frozenset[str] = frozenset()
    since: float = 0.0
    takeback: bool = True  #: the board takes it back when its pebbles are put back


def best_move_points(game: Game, text: str) -> tuple[str, ...]:
    """The points a hand touches for an action: where from (if anywhere) and where to."""
    action = next((a for a in game.legal_actions() if a.text == text), None)
    if action is None:
        return ()
    if action.kind is ActionKind.REMOVE:
        return (action.target_name,)
    return tuple(p for p in (action.origin_name, action.target_name) if p)


class Teacher:
    """The session's assistance: which advice is wanted, the blunder warning and the best
    move asked for, and the status with all of it added (`decorate`)."""

    def __init__(self, hints_per_turn: int = HINTS_PER_TURN) -> None:
        self.hints_per_turn = hints_per_turn
        self.advice: Advice | None = None
        self._asked: tuple[int, int] | None = None
        self._blunder: _Shown | None = None
        self._hint: _Shown | None = None
        self._hints: tuple[int, int] = (-1, 0)  #: (ply, hints given at it)
        #: an opponent's pebble up, since when, and whether setting it back still asks
        self._lifted: tuple[str, float, bool] | None = None
        self._memo: tuple[tuple[object, ...], Status] | None = None
        self.tr: Translator = ENGLISH  #: the language of the warnings and the best move

    # -- asking ------------------------------------------------------------------------------
    @staticmethod
    def level(game: Game, players: dict[Side, PlayerSpec]) -> int:
        """The side to act's assistance (0 when the game is over)."""
        if game.outcome() is not None:
            return 0
        return players[game.turn].assistance

    def request(self, game: Game, players: dict[Side, PlayerSpec]) -> AdviceRequest | None:
        """The advice to make now, if the side to act gets help and none is made or asked
        for this position (the same position is asked for once)."""
        level = self.level(game, players)
        if level < THREATS:
            return None
        here = (len(game.history), game.key)
        if self._current(game) is not None or self._asked == here:
            return None
        self._asked = here
        return AdviceRequest(here[0], here[1], game.copy(), level)

    def take(self, advice: Advice, game: Game) -> bool:
        """The advice made, for the position now or one ahead (made while the computer's
        move is carried out); False (dropped) when the game has moved past it."""
        if advice.ply < len(game.history) or (advice.ply == len(game.history)
                                               and advice.key != game.key):
            return False
        self.advice = advice
        return True

    def _current(self, game: Game) -> Advice | None:
        a = self.advice
        if a is not None and (a.ply, a.key) == (len(game.history), game.key):
            return a
        return None

    def reset(self) -> None:
        """A new game or a takeback: nothing shown is true any more."""
        self.advice = None
        self._asked = None
        self._blunder = self._hint = None
        self._lifted = None

    # -- what happens ------------------------------------------------------------------------
    def committed(self, game: Game, actions: list[Action], players: dict[Side, PlayerSpec],
                  now: float) -> bool:
        """Actions just played (already on `game`): a warning if the first was a blunder by
        a side at assistance 3 or more, judged by the advice made before it. True when a
        warning began."""
        self._hint = None
        ply = len(game.history) - len(actions)
        advice = self.advice
        if (not actions or advice is None or advice.ply != ply or advice.level < QUALITY
                or players[advice.side].assistance < QUALITY):
            return False
        first = actions[0]
        tr = self.tr
        reason = advice.reason(first.text, tr)
        if reason is None:
            return False
        log.info("blunder by %s: %s (%s)", advice.side, first.text, reason)
        points = (first.target_name,) if first.kind is not ActionKind.REMOVE else ()
        probe = game.copy()
        for _ in actions:
            probe.pop()
        online = any(p.kind == "online" for p in players.values())
        # Online, the move has gone to the other board: only both players take it back.
        words = (tr.gettext("{side} {action} was a mistake: {reason}; to try again, ask the "
                            "other player to take it back") if online else
                 tr.gettext("{side} {action} was a mistake: {reason}; take it back to try "
                            "again (or put the pebbles back as they were)"))
        self._blunder = _Shown(len(game.history), points,
                               words.format(side=side_words(advice.side, tr),
                                            action=first.text, reason=reason),
                               now + BLUNDER_SECONDS, ply,
                               frozenset(game.board.names(probe.occupancy)), now,
                               takeback=not online)
        return True

    def reply_due(self, game: Game) -> float:
        """When the reply to the move just played may be lit: REPLY_WAITS seconds after a
        blunder's warning began, while it stands; 0.0 when there is none."""
        shown = self._blunder
        if shown is None or shown.ply != len(game.history) or shown.before < 0:
            return 0.0
        return shown.since + REPLY_WAITS

    def undo_wanted(self, occupied: Iterable[str], game: Game) -> int | None:
        """The takeback a blunder offers on the board: the pebbles put back as they stood
        before it (a placed pebble lifted off, a moved one set back), while nothing else has
        been played. The ply to go back to, or None."""
        shown = self._blunder
        if (shown is None or shown.ply != len(game.history) or shown.before < 0
                or not shown.takeback):
            return None
        return shown.before if frozenset(occupied) == shown.occupied else None

    def ask_hint(self, game: Game, players: dict[Side, PlayerSpec]) -> str:
        """The best move, asked for (the page's button or the board's gesture); says why not
        when it cannot be shown (the words are for the page)."""
        level, tr = self.level(game, players), self.tr
        side = side_words(game.turn, tr)
        if level < BEST:
            return tr.gettext("{side} has no best move on request (assistance {level})").format(
                side=side, level=level)
        ply = len(game.history)
        used = self._hints[1] if self._hints[0] == ply else 0
        if used >= self.hints_per_turn:
            return tr.ngettext("{side} has had {n} best move this turn",
                               "{side} has had {n} best moves this turn",
                               self.hints_per_turn).format(side=side, n=self.hints_per_turn)
        advice = self._current(game)
        if advice is None or advice.judgement is None or advice.judgement.best is None:
            return tr.gettext("the best move is still being worked out: ask again in a moment")
        best = advice.judgement.best
        self._hints = (ply, used + 1)
        words = tr.gettext("best move: {action}").format(action=best)
        self._hint = _Shown(ply, best_move_points(game, best), words)
        return words

    def watch(self, status: Status, game: Game, players: dict[Side, PlayerSpec],
              now: float) -> bool:
        """Follow the tracker's status for the board's hint gesture: one opponent's pebble
        lifted (within the tracker's grace, or shown as a mistake after it) by a side that
        may ask, then the board as before within HINT_GESTURE seconds. True when it asked."""
        up = _lifted_opponent(status, game)
        if up is not None and self.level(game, players) >= BEST:
            if self._lifted is None or self._lifted[0] != up:
                self._lifted = (up, now, True)
            return False
        lifted, self._lifted = self._lifted, None
        if (lifted is not None and lifted[2] and status.kind == StatusKind.IDLE
                and now - lifted[1] <= HINT_GESTURE):
            words = self.ask_hint(game, players)
            log.info("hint gesture on %s: %s", lifted[0], words)
            return True
        return False

    def deadline(self) -> float | None:
        """When a pebble lifted to ask has been up too long to ask (`expire` is then due)."""
        lifted = self._lifted
        return lifted[1] + HINT_GESTURE if lifted is not None and lifted[2] else None

    def expire(self, now: float) -> bool:
        """A pebble lifted to ask and kept up past HINT_GESTURE no longer asks: the board
        shows it as the mistake to put right it is. True when that happened now."""
        due = self.deadline()
        if due is None or now < due:
            return False
        assert self._lifted is not None
        self._lifted = (self._lifted[0], self._lifted[1], False)
        return True

    # -- what is shown -----------------------------------------------------------------------
    def decorate(self, status: Status, game: Game, players: dict[Side, PlayerSpec]) -> Status:
        """`status` with the side to act's assistance and any blunder warning added (the
        same object for the same inputs, so the lights keep their frame)."""
        advice = self._current(game)
        blunder_ = self._blunder if (self._blunder is not None
                                     and self._blunder.ply == len(game.history)) else None
        hint = self._hint if (self._hint is not None
                              and self._hint.ply == len(game.history)) else None
        asking = (self._lifted[0],) if (self._lifted is not None and self._lifted[2]
                                        and _lifted_opponent(status, game) is not None) else ()
        memo_key = (status, advice, blunder_, hint, players.get(game.turn), asking)
        if self._memo is not None and self._memo[0] == memo_key and self._memo[0][0] is status:
            return self._memo[1]
        changes: dict[str, object] = {}
        level = self.level(game, players)
        if advice is not None and level >= THREATS:
            if advice.threats is not None and status.kind in (StatusKind.IDLE,
                                                              StatusKind.IN_PROGRESS):
                changes["threats"] = advice.threats.points()
            if level >= QUALITY and advice.judgement is not None:
                changes["quality"] = _quality(status, advice.judgement)
        words = []
        if blunder_ is not None:
            changes["blunder"] = blunder_.points
            changes["blunder_until"] = blunder_.until
            words.append(blunder_.words)
        if hint is not None and status.kind == StatusKind.IDLE:
            changes["hint"] = hint.points
            words.append(hint.words)
        if asking:
            changes["asking"] = asking
        if advice is not None and advice.threats is not None and level >= THREATS:
            words += [_threat_words(t.kind.value, t.action, t.mills, advice.threats.by, self.tr)
                      for t in advice.threats.items]
        if words:
            changes["advice"] = "; ".join(words)
        out = replace(status, **changes) if changes else status  # type: ignore[arg-type]
        self._memo = (memo_key, out)
        return out


def _lifted_opponent(status: Status, game: Game) -> str | None:
    """The point of the one opponent's pebble lifted, nothing else changed (as the tracker
    shows it: within its grace period, and as a mistake after), or None."""
    if (status.kind == StatusKind.IN_PROGRESS and len(status.lifted) == 1 and not status.placed
            and not status.candidates and not status.destinations):
        point = status.lifted[0]
    elif (status.kind == StatusKind.MISMATCH and status.reason == MismatchReason.MISTAKE
          and len(status.to_fill) == 1 and not status.to_empty):
        point = status.to_fill[0]
    else:
        return None
    return point if game.colour_at(game.board.index(point)) == game.turn.other else None


def _quality(status: Status, judgement: Judgement) -> tuple[tuple[str, str], ...]:
    """The classes to light: the destinations of the lifted pebble, or the free points while
    placing (nothing lifted)."""
    if status.kind == StatusKind.IN_PROGRESS and len(status.lifted) == 1:
        by = judgement.by_target(status.lifted[0])
        return tuple((p, by[p].value) for p in status.destinations if p in by)
    if status.kind == StatusKind.IDLE:
        placing = {v.target: v.quality for v in judgement.verdicts if v.origin is None
                   and not v.action.startswith("x")}
        return tuple((p, q.value) for p, q in placing.items())
    return ()


def _threat_words(kind: str, action: str, mills: tuple[str, ...], by: Side,
                  tr: Translator = ENGLISH) -> str:
    places = {"side": side_words(by, tr), "action": action}
    if kind == "mill":
        return tr.gettext("{side} threatens to close {mill} with {action}").format(
            mill=mills[0], **places)
    if kind == "double":
        return tr.gettext("{side} threatens two mills at once with {action} ({mill} and "
                          "{other})").format(mill=mills[0], other=mills[-1], **places)
    return tr.gettext("{side} threatens to shut every pebble in with {action}").format(**places)

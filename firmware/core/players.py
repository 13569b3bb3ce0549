"""Computer players behind one small interface, so the engine's search can be swapped in.

A player is anything with `choose(game, stop) -> Action` (the engine's `ChoosesActions`).
The daemon runs a whole computer turn (a move and the removals its mills earn) in an
executor on a copy of the game, and hands the result to the session, which shows it on the
board. The search itself runs in a child process (the engine's `SearchProcessPlayer`), so
the executor's thread only waits and the daemon's loop never competes with it for the
interpreter. Who plays a side is written in the engine's one grammar of player specs
(engine/player_spec.py: `PlayerSpec`, `SPEC_WORDS`), which every command and the
configuration read.
"""

from __future__ import annotations

import logging
import threading

from navakankari.engine.actions import Action
from navakankari.engine.game import Game
from navakankari.engine.player import ChoosesActions
from navakankari.engine.player_spec import DEFAULT_ASSIST as DEFAULT_ASSIST
from navakankari.engine.player_spec import HAND as HAND
from navakankari.engine.player_spec import MAX_ASSIST as MAX_ASSIST
from navakankari.engine.player_spec import SPEC_WORDS as SPEC_WORDS
from navakankari.engine.player_spec import PlayerSpec as PlayerSpec
from navakankari.engine.player_spec import PlayerSpecError as PlayerSpecError
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.hal.words import N_, Phrase, phrase_or

log = logging.getLogger(__name__)

ASSIST_LEVELS = ("none", "legal moves", "threats", "move quality", "best move on request")
"""The help a hand side gets, by level (each includes the ones below it): 0 shows only mistakes
to fix, 1 the legal moves (the default), 2 the opponent's threats, 3 each destination's quality
on lifting a pebble and a warning after a blunder, 4 the best move on request."""
assert len(ASSIST_LEVELS) == MAX_ASSIST + 1, "a word for every assistance level"


def assist_words(level: int, tr: Translator = ENGLISH) -> str:
    """An assistance level in the players' language (`ASSIST_LEVELS` in English)."""
    words = (tr.gettext("none"), tr.gettext("legal moves"), tr.gettext("threats"),
             tr.gettext("move quality"), tr.gettext("best move on request"))
    return words[level]


CHILD_NICE = 10
"""Nice levels the search and advice processes run below the loop that reads the sensors:
on a busy Pi the loop goes first, and a search only uses what the loop leaves."""


def computer_player(level: int, *, seed: int | None = None, nice: int = CHILD_NICE
                    ) -> ChoosesActions:
    """The engine's search player at `level` (1..MAX_LEVEL), searching in a child process
    (started on the first request; a fresh one after a failure) `nice` levels below this one."""
    from navakankari.engine.search_process import SearchProcessPlayer

    log.info("computer player: level %d", level)
    return SearchProcessPlayer(level, seed=seed, nice=nice)


def player_for(spec: PlayerSpec) -> ChoosesActions:
    """The player behind a side the daemon plays: the search at a level, an installed engine
    (`engine:PATH`), or a weak opponent (random, greedy: played in this process)."""
    if spec.kind in ("random", "greedy"):
        from navakankari.engine.player_spec import make_player

        return make_player(spec)
    if spec.kind == "engine":
        from navakankari.engine.external import EnginePlayer

        log.info("engine player: %s", spec)
        return EnginePlayer(str(spec))
    return computer_player(spec.level)


def computer_turn(player: ChoosesActions, game: Game, stop: threading.Event | None = None,
                  seed: int | None = None) -> tuple[Action, ...]:
    """The computer's whole turn on a copy of `game`: its action, then each removal it
    earns (a removal is a separate action of the same side). With the game's `seed`, a
    player that can follow one (the search) chooses by it (`Player.follow_seed`)."""
    follow = getattr(player, "follow_seed", None) if seed is not None else None
    probe = game.copy()
    side = probe.turn
    out: list[Action] = []
    while probe.outcome() is None and probe.turn == side and (not out or probe.pending_removals):
        if stop is not None and stop.is_set():
            break
        if follow is not None:
            follow(seed, probe)
        action = player.choose(probe.copy(), stop)
        if action not in probe.legal_actions():
            raise ValueError(Phrase(N_("the computer player chose {action}, which is illegal "
                                       "here"), action=action.text))
        probe.push(action)
        out.append(action)
    return tuple(out)


FAILURE_KINDS = ((MemoryError, N_("the computer player ran out of memory")),
                 (TimeoutError, N_("the computer player did not answer in time")),
                 (OSError, N_("the computer player could not run: the system refused it")),
                 (ValueError, N_("the computer player gave an answer the board cannot use")))
"""How a computer player's failure that keeps no wording of its own is named: by its kind,
the first that fits (a subclass before its base)."""
UNEXPECTED_FAILURE = N_("the computer player failed unexpectedly; the board's log says why")


def failure_phrase(exc: BaseException) -> Phrase:
    """A computer player's failure as the board shows and says it: the error's own wording
    (an engine error, a phrase), else a sentence naming its kind. Another library's English
    detail is for the log, never for the players."""
    return phrase_or(exc, next((m for kind, m in FAILURE_KINDS if isinstance(exc, kind)),
                               UNEXPECTED_FAILURE))

"""The game in play and its keeping: its rules, players, start, seed and history, and the
store's copy of it with its raw events.

The session's game starts (game_start.py) ask the keeper which stored game to open at
start-up, begin a new game, load a stored one; the session has each change of the game
(actions, takebacks, players, an ending) stored here. The board's side (sensing, tracker,
menu, lights) is the board state's (board_state.py). Nothing here follows the sensors or
tells anyone: a committed action is in the store before the session tells its subscribers.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from navakankari.engine.actions import Action
from navakankari.engine.adaptive import next_level
from navakankari.engine.game import Game, Side
from navakankari.engine.player import DEFAULT_LEVEL, MAX_LEVEL, SEEDS
from navakankari.engine.player_spec import at_level
from navakankari.engine.rules import Rules
from navakankari.engine.variants import start_game, start_position
from navakankari.hal.sensors import SensorEvent

from ..store.database import Store, StoredGame
from .menu import GameChoice
from .players import HAND, PlayerSpec
from .recorder import RawRecorder
from .recording_head import Clocked, MenuStart, format_game_line, format_line

log = logging.getLogger(__name__)


def default_players() -> dict[Side, PlayerSpec]:
    return {Side.WHITE: HAND, Side.BLACK: HAND}


def _is_game(stored: StoredGame, rules: Rules, players: Mapping[Side, PlayerSpec] | None
             ) -> bool:
    """Whether a stored game is one of these rules between these players."""
    named = dict(players or default_players())
    return stored.rules == rules and stored.players == {
        str(side): str(spec) for side, spec in named.items()}


class GameKeeper:
    """The game in play (`game`, `rules`, `players`, `start`, `game_seed`) and its stored copy."""

    def __init__(self, store: Store | None, *, offered: Collection[str] | None = None,
                 game_seeds: Callable[[], int] | None = None) -> None:
        """`offered`: the variants this board plays (None: any on the default's board).
        `game_seeds` gives each new game the seed its search follows (default: at random)."""
        self.store = store
        self.offered = offered
        self._game_seeds = game_seeds or (lambda: random.SystemRandom().randrange(SEEDS))
        self.game_seed: int | None = None  #: the seed the game in play's search follows
        self._recorder = RawRecorder(store)  #: the raw events' recording (recorder.py)
        self.rules: Rules
        self.players: dict[Side, PlayerSpec]
        self.start: str | None
        self.game: Game

    # -- which game opens ----------------------------------------------------------------------
    def plays(self, stored: Rules, default: Rules) -> bool:
        """Whether this board plays a stored game's rules: one of its variants (the wiring
        profile's), else a game on the default's board."""
        if self.offered is not None:
            return stored.name in self.offered
        return stored.board == default.board

    def unfinished(self, rules: Rules, players: Mapping[Side, PlayerSpec] | None, *,
                   resume: bool, start_named: bool) -> StoredGame | None:
        """The unfinished game in the store to resume at start-up, if any (see `Session`)."""
        store = self.store
        stored = store.last_unfinished() if (store is not None and resume) else None
        if stored is not None and not self.plays(stored.rules, rules):
            # `rules` names the default for a new game only: an unfinished game of any
            # variant (chosen on the board, or on the page) is resumed while this board can
            # play it.
            log.info("not resuming game %d: it is %s, which this board cannot play",
                     stored.id, stored.rules.name)
            stored = None
        if stored is not None and start_named and not _is_game(stored, rules, players):
            log.info("not resuming game %d: a game of %s was asked for by name", stored.id,
                     rules.name)
            stored = None
        return stored

    def last_played(self, rules: Rules) -> StoredGame | None:
        """"The same as last time": the last game stored, if this board plays it."""
        last = self.store.games(limit=1) if self.store is not None else []
        if last and self.plays(last[0].rules, rules):
            return last[0]
        return None

    # -- a game begins -------------------------------------------------------------------------
    def begin(self, rules: Rules, players: dict[Side, PlayerSpec], first: Side) -> None:
        """A new game in play, not yet stored (`keep` stores it)."""
        players = self._at_adaptive_level(players)
        self.rules = rules
        self.players = players
        self.start = start_position(rules, first)
        self.game = start_game(rules, self.start)
        self.game_seed = self._game_seeds()

    def keep(self, now: float, *, record: bool, menu_events: Clocked | None,
             menu_start: MenuStart | None, raw: set[str]) -> None:
        """Its recording starts at `now`; kept in the store when `record` (see `Session`).
        `menu_events` and `menu_start`: the menu's recording and how it stood, when the game
        was chosen on the board; `raw`: the points the sensors read a pebble on now."""
        self._recorder.start(now)
        if self.store is not None and record:
            game_id = self.store.new_game(
                self.rules, {str(s): str(p) for s, p in self.players.items()}, self.start,
                level=self.adaptive_level, seed=self.game_seed)
            if menu_events is not None and menu_start is not None:
                # Chosen on the board: the recording starts with the menu, and its first line
                # says how the menu stood, so `navakankari replay FILE` goes through the same
                # choices into this game.
                self._recorder.begin(game_id, format_line(menu_start), events=menu_events)
            else:
                # Started otherwise (the page, a command, the configuration), even while the
                # menu was lit: the first line names this game, and the start position's
                # pebbles already stand, so the recording replays from an empty board. Stray
                # pebbles are left out: their removal replays as nothing.
                expected = set(self.game.board.names(self.game.occupancy))
                self._recorder.begin(game_id, format_game_line(self.choice),
                                     standing=sorted(raw & expected))

    def _at_adaptive_level(self, players: dict[Side, PlayerSpec]) -> dict[Side, PlayerSpec]:
        """The players of a game about to start, an adaptive computer at the level its last
        results in the store give (engine/adaptive.py)."""
        if not any(p.adaptive for p in players.values()):
            return players
        level = next_level(self.store.adaptive_games()) if self.store is not None \
            else DEFAULT_LEVEL
        log.info("the adaptive computer plays at level %d", level)
        return {side: at_level(p, level) for side, p in players.items()}

    def load(self, stored: StoredGame, now: float, raw: set[str]) -> None:
        """The stored game as it stands, its recording continued after its last event (the
        sensors read `raw` now: what changed while the daemon was not watching is noted)."""
        self.rules = stored.rules
        level = DEFAULT_LEVEL if stored.level is None else min(max(stored.level, 1), MAX_LEVEL)
        self.players = {side: at_level(PlayerSpec.parse(stored.players.get(str(side), "hand")),
                                       level) for side in (Side.WHITE, Side.BLACK)}
        self.start = stored.start
        self.game = start_game(stored.rules, stored.start)
        self.game_seed = stored.seed
        for text in stored.actions:
            self.game.play(text)
        self._recorder.resume(stored.id, now, raw)

    # -- the game in play --------------------------------------------------------------------
    @property
    def adaptive_level(self) -> int | None:
        """The level the adaptive computer plays at in the game in play; None without one."""
        return next((p.level for p in self.players.values() if p.adaptive), None)

    @property
    def first(self) -> Side:
        """The side that moved first in the game in play."""
        return Side.WHITE if self.start is None else start_game(self.rules, self.start).turn

    @property
    def choice(self) -> GameChoice:
        """The game in play as the menu chooses one: its variant, players and first side."""
        return GameChoice(self.rules.name, str(self.players[Side.WHITE]),
                          str(self.players[Side.BLACK]), str(self.first))

    def hand_turn_start(self) -> int:
        """The ply where a hand side last began its turn (0 if none has played)."""
        history = self.game.history
        probe = self.game.copy()
        for ply in range(len(history) - 1, -1, -1):
            probe.pop()
            if (self.players[probe.turn].kind == "hand" and not probe.pending_removals
                    and not (ply and self._same_turn(probe))):
                return ply
        return 0

    @staticmethod
    def _same_turn(probe: Game) -> bool:
        """The action before this position was by the same side (a move before its removal)."""
        before = probe.copy()
        before.pop()
        return before.turn == probe.turn

    # -- its changes, stored -----------------------------------------------------------------
    def committed(self, actions: Iterable[Action]) -> None:
        """`actions`, just played, stored with the raw events before them (and the outcome,
        if they ended the game)."""
        texts = [a.text for a in actions]
        ply = len(self.game.history) - len(texts)
        if self.store is not None and self.game_id is not None:
            self.store.append(self.game_id, ply, texts, events=self._recorder.take())
            outcome = self.game.outcome()
            if outcome is not None:
                self.store.finish(self.game_id, outcome.to_dict())
            log.info("stored ply %d: %s", ply + 1, " ".join(texts))

    def takeback_to(self, ply: int) -> None:
        """Back to the position after `ply` actions, in the store too."""
        while len(self.game.history) > ply:
            self.game.pop()
        if self.store is not None and self.game_id is not None:
            self.store.truncate(self.game_id, ply)

    def set_players(self, players: Mapping[Side, PlayerSpec]) -> None:
        self.players = {**self.players, **players}
        if self.store is not None and self.game_id is not None:
            self.store.set_players(self.game_id, {str(s): str(p) for s, p in self.players.items()})

    def finish(self, outcome: dict[str, Any]) -> None:
        """The game ended by something outside its rules: stored as such."""
        if self.store is not None and self.game_id is not None:
            self.flush()
            self.store.finish(self.game_id, outcome)

    # -- its recording -------------------------------------------------------------------------
    @property
    def game_id(self) -> int | None:
        """The stored game in play (None: not kept, or the menu's default before a choice)."""
        return self._recorder.game_id

    def record(self, event: SensorEvent) -> None:
        """A raw sensor edge of the game in play, for its recording."""
        self._recorder.record(event)

    @property
    def pending(self) -> bool:
        """Raw events wait to be written."""
        return self._recorder.pending

    def flush(self) -> None:
        """Write buffered raw events."""
        self._recorder.flush()

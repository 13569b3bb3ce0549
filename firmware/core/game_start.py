"""A game put on the board: a new one, a stored one loaded or resumed, a takeback, other
players. Each puts the shared board state (board_state.py) on the game as it now stands (the
keeper's game, sensing and a tracker following it, the turns asked of the computer
forgotten) and tells the subscribers, so the session, the menu's choices and the page start
and take back games the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from navakankari.engine.game import Side
from navakankari.engine.rules import Rules

from ..store.database import StoredGame
from .board_state import BoardState
from .game_keeper import default_players
from .players import PlayerSpec
from .update import Update

log = logging.getLogger(__name__)


class GameStart:
    """New games, loaded games, takebacks and changes of players on one board."""

    def __init__(self, state: BoardState) -> None:
        self._state = state

    def at_start_up(self, rules: Rules, players: Mapping[Side, PlayerSpec] | None, now: float,
                    *, resume: bool, menu: bool, start_named: bool) -> bool:
        """The game the board opens with (see `Session`); returns whether the menu opens:
        a board with a `menu` shows it unless a game is resumed or `start_named`."""
        keeper = self._state.keeper
        stored = keeper.unfinished(rules, players, resume=resume, start_named=start_named)
        if stored is not None:
            self.resume(stored, now)
            return False
        if menu and not start_named:
            # "The same as last time" is the last game stored, if this board plays it; it is
            # loaded as it ended, so the menu's "take back" reopens it after a restart too.
            last = keeper.last_played(rules)
            if last is not None:
                self.load(last, now)
                log.info("game %d (%s), the last stored, is loaded as it stands: the menu's "
                         "take back reopens it", last.id, last.rules.name)
            else:
                self.start(rules, dict(players or default_players()), now, record=False)
            return True
        self.start(rules, dict(players or default_players()), now)
        return False

    def start(self, rules: Rules, players: dict[Side, PlayerSpec], now: float, *,
              record: bool = True, on_board: bool = False, first: Side = Side.WHITE,
              colours: Mapping[str, Side | None] | None = None) -> None:
        """A new game (`record`: kept in the store and logged; at start-up the menu's
        default is neither, as no game starts until the menu chooses one). `on_board`: chosen
        on the board's menu, so its recording starts with the menu's. `first`: the side that
        moves first (each side keeps its players; a game black begins starts from a position,
        which the store and the record keep). `colours`: the pebbles on the board, as
        `Tracker` takes them."""
        state, keeper, host = self._state, self._state.keeper, self._state.host
        keeper.begin(rules, players, first)
        state.broker.seed = keeper.game_seed
        state.broker.forget_problem()  # a failed computer turn belongs to its game
        state.teacher.reset()
        menu_events, menu_start = host.events, host.start
        host.menu = None
        state.follow(now, colours)
        state.broker.moved_on()
        keeper.keep(now, record=record, menu_events=menu_events if on_board else None,
                    menu_start=menu_start if on_board else None, raw=state.raw)
        host.events = None
        if record:
            log.info("new game: %s, white %s, black %s, %s moves first", rules.name,
                     keeper.players[Side.WHITE], keeper.players[Side.BLACK], first)

    def resume(self, stored: StoredGame, now: float) -> None:
        """The stored unfinished game, played on from where it stood."""
        self.load(stored, now)
        log.info("resumed game %d (%s) after %d actions", stored.id, stored.rules.name,
                 len(stored.actions))

    def load(self, stored: StoredGame, now: float) -> None:
        """The stored game as it stands, its recording continued after its last event."""
        state = self._state
        state.keeper.load(stored, now, state.raw)
        state.broker.seed = state.keeper.game_seed
        state.teacher.reset()
        state.follow(now)
        state.broker.moved_on()

    def new_game(self, now: float, rules: Rules | None = None,
                 players: Mapping[Side, PlayerSpec] | None = None,
                 first: Side | None = None) -> None:
        """Start a game; the board is guided to the start position first. `first`: the side
        that moves first; by default white, or for the same game again (neither `rules` nor
        `players` given) the side that moved first in the game in play."""
        keeper = self._state.keeper
        if first is None:
            first = keeper.first if rules is None and players is None else Side.WHITE
        self.begin(now, rules or keeper.rules, dict(players or keeper.players), first=first)

    def begin(self, now: float, rules: Rules, players: Mapping[Side, PlayerSpec], *,
              on_board: bool = False, first: Side = Side.WHITE) -> None:
        """`new_game` with everything named (`on_board`: chosen on the board's menu)."""
        state = self._state
        if state.keeper.store is not None and state.keeper.game_id is not None:
            state.keeper.flush()
        # The pebbles of a game in play stay where they stood: the new game's way to its start
        # names their colours (not after the end of a game or the menu, when hands moved
        # pebbles the way back never asked for).
        playing = state.menu is None and state.keeper.game.outcome() is None
        colours = state.tracker.colours if playing else None
        self.start(rules, dict(players), now, on_board=on_board, first=first, colours=colours)
        state.last_status = state.tracker.status
        state.notify(Update("new-game", state.tracker.status, 0))

    def takeback(self, now: float, plies: int = 1) -> None:
        """Take back the last `plies` actions; the board is guided back."""
        self.takeback_to(now, max(0, len(self._state.keeper.game.history) - plies))

    def takeback_turn(self, now: float) -> None:
        """Undo the last turn a hand side played, and whatever the computer (or a remote
        player) answered since: back to where a hand was last to act."""
        self.takeback_to(now, self._state.keeper.hand_turn_start())

    def takeback_to(self, now: float, ply: int) -> None:
        """Go back to the position after `ply` actions (0: the start)."""
        state = self._state
        if not 0 <= ply <= len(state.keeper.game.history):
            raise ValueError(f"ply must be 0..{len(state.keeper.game.history)}, not {ply}")
        if state.menu is not None:  # the last game, reopened
            state.host.close()
            state.tracker.see(state.sensing.reading())
            state.tracker.set_hands(state.hands(), now)
        state.broker.forget_problem()  # the game moves on: the computer is asked again
        state.keeper.takeback_to(ply)
        state.teacher.reset()
        state.tracker.sync(now, clearable=False)
        state.broker.moved_on()
        state.last_status = state.tracker.status
        state.notify(Update("takeback", state.tracker.status, ply))

    def set_players(self, now: float, players: Mapping[Side, PlayerSpec]) -> None:
        """Other players for the game in play (the page): the hands follow them at once."""
        state = self._state
        state.broker.forget_problem()
        state.keeper.set_players(players)
        if state.menu is None:
            state.tracker.set_hands(state.hands(), now)
        state.broker.moved_on()
        state.notify(Update("players", state.tracker.status, len(state.keeper.game.history)))

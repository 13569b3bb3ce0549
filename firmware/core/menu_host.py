"""The board's menu while no game is in play: it opens, reads the settled board, says what
is lit, and hands the session the choice made.

The menu itself (`menu.py`) knows the steps and the gestures; its host keeps what lives only
while it is lit: its status, the raw events since it opened (a game chosen on the board is
recorded from the menu's opening, so its replay goes through the same choices) and how the
menu stood then (`MenuStart`), and the toss's generator, seeded by the time of the last edge.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable

from navakankari.engine.game import Game
from navakankari.engine.player import MAX_LEVEL
from navakankari.engine.presets import preset
from navakankari.engine.rules import Rules
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.engine.variants import new_game

from . import menu as board_menu
from .menu import Chosen, GameChoice, Kind, Menu, MenuSettings
from .recording_head import Clocked, MenuStart
from .status import Status, StatusKind


@functools.lru_cache(maxsize=64)
def start_points(rules: Rules) -> frozenset[str]:
    """The points a game of these rules starts with pebbles on (none in the morris games);
    kept, as the menu and a game over ask on every tick of their animations."""
    start = new_game(rules)
    return frozenset(start.board.names(start.occupancy))


class MenuHost:
    """The menu lit on one board, when it is (`menu`), and what it says (`status`)."""

    def __init__(self, settings: MenuSettings | None, variants: Iterable[str] | None, *,
                 online: bool, seed: int) -> None:
        """`settings`: None for a board without a menu. `variants`: the ones offered
        (None: those played on the game's board). `online`: a player at another board is
        offered. `seed`: with the time of the last edge since the menu opened, decides a
        toss, so a recording replays to the same toss."""
        self.settings = settings
        self.offered = tuple(variants) if variants is not None else None  #: None: the board's
        self.online = online
        self.seed = seed
        self._rng = random.Random(seed)
        self.menu: Menu | None = None
        self.status: Status | None = None
        self.events: Clocked | None = None  #: raw events since the menu opened
        self.start: MenuStart | None = None  #: how the menu stood when it opened
        self.tr: Translator = ENGLISH  #: the language of the menu's words
        self.language = ""  #: the board's language (lit as the current one in its step)

    def variants(self, game: Game) -> tuple[str, ...]:
        """The variants the menu offers."""
        if self.offered is not None:
            return self.offered
        return board_menu.playable(game.board.points)

    def open(self, game: Game, last: GameChoice, settled: frozenset[str],
             raw: Iterable[str], now: float) -> None:
        """Light the menu on `game`'s board; `last`: the game "the same as last time"
        plays; `raw`: what the sensors read now (the recording's first events)."""
        assert self.settings is not None
        self.start = MenuStart(last, self.variants(game), self.settings, self.seed,
                               self.online)
        self.menu = Menu(game.board, self.variants(game),
                         board_menu.player_specs(MAX_LEVEL, self.online,
                                                 self.settings.adaptive),
                         last, can_takeback=bool(game.history),
                         settings=self.settings, rng=self._rng, occupied=settled, now=now)
        self.menu.tr, self.menu.language = self.tr, self.language
        self.events = Clocked(t0=now, pending=[(0.0, p, True) for p in sorted(raw)])
        self.status = None

    def close(self) -> None:
        """A game is in play again."""
        self.menu = self.events = None

    def still(self, now: float, sensed: bool) -> bool:
        """Nothing in the menu can change at `now`: the settled reading did not change
        (`sensed`: it did, or a faulty sensor is read again), the menu's own deadline is not
        due and its status was said. The lights animate meanwhile, and must stay cheap."""
        assert self.menu is not None
        due = self.menu.deadline()
        return not sensed and self.status is not None and (due is None or now < due)

    def read(self, settled: frozenset[str], last_change: float, now: float, *,
             auto_new_game: bool) -> Chosen | None:
        """What the hands chose, if anything, from the settled board at `now`.
        `auto_new_game`: Nau Keti Keta's armies set up again start the same game at once,
        as without a menu."""
        menu = self.menu
        assert menu is not None and self.events is not None
        self._rng.seed(f"{self.seed}:{last_change - self.events.t0:.6f}")
        chosen = menu.see(settled, now) or menu.tick(now)
        if chosen is None and auto_new_game and menu.last is not None:
            points = start_points(preset(menu.last.variant))
            if points and settled == points:
                chosen = Chosen(Kind.SAME, menu.last)
        return chosen

    def changed(self, now: float, turn: str, faulty: tuple[str, ...]) -> Status | None:
        """The menu's status at `now`, if it is not the one said before (then kept)."""
        status = self._build_status(now, turn, faulty)
        if self.status is None or not status.same_as(self.status):
            self.status = status
            return status
        return None

    def _build_status(self, now: float, turn: str, faulty: tuple[str, ...]) -> Status:
        assert self.menu is not None
        view = self.menu.view(now)
        toss = view.toss
        return Status(
            StatusKind.MENU, turn, now, menu_step=view.name,
            choices=tuple((c.point, c.kind.value, c.label) for c in view.choices),
            current=view.current, picked=view.picked, confirm_point=view.held,
            confirm_hold=self.menu.settings.hold, holding=bool(view.held), armed=view.armed,
            toss_ring=toss.ring if toss else (), toss_start=toss.start if toss else 0.0,
            toss_step=toss.step if toss else 0.0, toss_steps=toss.steps if toss else 0,
            toss_result=toss.result if toss else "", faulty=faulty)

    def deadline(self) -> float | None:
        return self.menu.deadline() if self.menu is not None else None

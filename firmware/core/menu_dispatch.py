"""The board's menu in the session: opened when no game is in play, read on each tick, its
choices carried out (a setting kept, the last game taken back, a new game started), and the
board's settings it and the page choose (the LED brightness, speech, the language).

The menu (menu.py) and its host (menu_host.py) say what the hands chose; this module does it,
on the shared board state (board_state.py) and through the game starts (game_start.py).
"""

from __future__ import annotations

import logging

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.engine.translator import Translator
from navakankari.firmware.i18n.catalogs import translations

from ..store.database import Store
from . import wording
from .board_settings import keep_brightness, keep_speech, kept_brightness, kept_speech
from .board_state import BoardState
from .game_start import GameStart
from .language import keep_language, kept_language
from .menu import Chosen, Kind, MenuSettings
from .players import PlayerSpec
from .update import Update

log = logging.getLogger(__name__)


class MenuDispatch:
    """The menu lit on one board, its choices carried out, and the settings kept."""

    def __init__(self, state: BoardState, starts: GameStart, store: Store | None, *,
                 settings: MenuSettings | None, auto_new_game: bool, language: str) -> None:
        """`settings`: None for a board without a menu. `auto_new_game`: Nau Keti Keta's
        armies set up again start the same game. `language`: the one spoken unless another
        was chosen on the board or the page (kept in the store)."""
        self._state = state
        self._starts = starts
        self.store = store
        self.settings = settings
        self.auto_new_game = auto_new_game
        self.language = kept_language(store, language)  #: the board's language (language.py)
        self._speak(self.language)
        #: LED brightness chosen on the board (a fraction of the cap), kept in the store
        self.brightness = kept_brightness(store)
        #: spoken announcements turned on or off on the board or the page, kept in the store
        #: (None: never, the configuration decides)
        self.speech: bool | None = kept_speech(store)

    def variants(self) -> tuple[str, ...]:
        """The variants the menu offers."""
        return self._state.host.variants(self._state.keeper.game)

    def open(self, now: float) -> None:
        """No game in play: the board shows the menu and the tracker accepts nothing."""
        assert self.settings is not None
        state = self._state
        state.keeper.flush()  # the last game's recording ends here
        state.tracker.set_hands((), now)
        state.host.open(state.keeper.game, state.keeper.choice, state.settled, state.raw, now)
        state.broker.moved_on()
        self.changed(now, "menu")

    def tick(self, now: float, sensed: bool = True) -> None:
        """`sensed`: the settled reading changed (or a faulty sensor is read again)."""
        state = self._state
        if state.host.still(now, sensed):
            return
        chosen = state.host.read(state.settled, state.sensing.last_change, now,
                                 auto_new_game=self.auto_new_game)
        if chosen is None:
            self.changed(now, "status")
            return
        self._carry_out(chosen, now)

    def _carry_out(self, chosen: Chosen, now: float) -> None:
        if chosen.kind == Kind.BRIGHTNESS_VALUE:
            self.brightness = keep_brightness(self.store, chosen.brightness)
            self.changed(now, "brightness")
        elif chosen.kind == Kind.SPEECH:
            self._keep_speech(chosen.speech)
            self.changed(now, "speech")
        elif chosen.kind == Kind.LANGUAGE:
            self.set_language(chosen.language, now)
        elif chosen.kind == Kind.TAKEBACK:
            self._starts.takeback_turn(now)
        else:
            game = chosen.game
            assert game is not None
            self._starts.begin(now, preset(game.variant),
                               {Side.WHITE: PlayerSpec.parse(game.white, "white"),
                                Side.BLACK: PlayerSpec.parse(game.black, "black")},
                               on_board=True,
                               first=Side.BLACK if game.first == "black" else Side.WHITE)

    def changed(self, now: float, reason: str) -> None:
        """Tell the subscribers the menu's status (`reason`) if it is not the one told."""
        state = self._state
        status = state.host.changed(now, str(state.keeper.game.turn),
                                    state.keeper.game.board.names(state.sensing.faulty))
        if status is not None:
            state.notify(Update(reason, status, len(state.keeper.game.history)))

    # -- the board's settings ----------------------------------------------------------------
    def set_speech(self, on: bool) -> None:
        """Turn spoken announcements on or off (the page; the menu has its own choice)."""
        self._keep_speech(on)
        state = self._state
        state.notify(Update("speech", state.status, len(state.keeper.game.history)))

    def _keep_speech(self, on: bool) -> None:
        self.speech = keep_speech(self.store, on)

    @property
    def tr(self) -> Translator:
        """The board's language's words (the catalogs')."""
        return translations(self.language)

    def _speak(self, code: str) -> None:
        self.language = code
        state = self._state
        state.teacher.tr = state.host.tr = self.tr
        state.host.language = code
        if state.menu is not None:
            state.menu.tr, state.menu.language = self.tr, code

    def set_language(self, code: str, now: float) -> None:
        """Speak `code` from now on, and keep it (UnknownLanguage if the board does not)."""
        self._speak(keep_language(self.store, code))
        log.info("language %s", code)
        state = self._state
        if state.menu is not None:
            self.changed(now, "language")
        else:
            state.notify(Update("language", state.status, len(state.keeper.game.history)))

    def menu_facts(self, tr: Translator | None = None) -> dict[str, str] | None:
        """While the menu is lit, no game is in play: its step and the choices made so far,
        in words (`tr`'s, else the board's language), for a page to show instead of the last
        game's variant and players."""
        menu = self._state.menu
        if menu is None:
            return None
        return wording.menu_facts(menu.step_name, menu.so_far(), tr or self.tr)

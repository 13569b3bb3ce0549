"""What the page says while the menu is lit: the step and the choices made so far (the
session's menu dispatch's `menu_facts`, which the companion's snapshot carries), not the last game's variant
and players. On the injected clock."""

from __future__ import annotations

from navakankari.engine.player import MAX_LEVEL
from navakankari.engine.presets import preset
from navakankari.firmware.core.menu import Kind
from navakankari.firmware.core.wording import NOT_CHOSEN, menu_facts
from navakankari.firmware.store.database import Store
from test_menu import MenuBoard


def test_the_choices_so_far_follow_every_step_and_every_back(tmp_path):
    store = Store(tmp_path / "games.sqlite3")
    game = store.new_game(preset("lasker"), {"white": "computer:2", "black": "remote"})
    store.finish(game, {"winner": None, "reason": "cleared"})  # unfinished, it is resumed
    b = MenuBoard("nine-mens-morris", store).run()
    menu = b.session.menu
    assert menu is not None and menu.so_far() == {}  # the last game is not a choice made
    assert menu_facts("variant", menu.so_far()) == {
        "step": "the board's menu: choose the game", "variant": NOT_CHOSEN,
        "white": NOT_CHOSEN, "black": NOT_CHOSEN}
    b.choose(Kind.VARIANT, "six-mens-morris", noise=False)
    assert menu.so_far() == {"variant": "six-mens-morris"}
    b.choose(Kind.PLAYER, f"computer:{MAX_LEVEL}", noise=False)
    assert menu.so_far() == {"variant": "six-mens-morris", "white": f"computer:{MAX_LEVEL}"}
    b.choose(Kind.PLAYER, "remote", noise=False)
    facts = menu_facts(b.status.menu_step, menu.so_far())
    assert facts == {"step": "the board's menu: choose who starts", "variant": "six-mens-morris",
                     "white": f"the computer at level {MAX_LEVEL}",
                     "black": "remote (the companion)"}
    b.choose(Kind.BACK, noise=False)
    assert menu.so_far() == {"variant": "six-mens-morris", "white": f"computer:{MAX_LEVEL}"}
    b.choose(Kind.BACK, noise=False).choose(Kind.BACK, noise=False)
    assert b.status.menu_step == "variant" and menu.so_far() == {}
    b.choose(Kind.BRIGHTNESS, noise=False)
    facts = b.session.dispatch.menu_facts()
    assert facts == {"step": "the board's menu: choose the LED brightness",
                     "variant": NOT_CHOSEN, "white": NOT_CHOSEN, "black": NOT_CHOSEN}
    b.choose(Kind.BACK, noise=False).choose(Kind.SAME, noise=False)
    assert b.session.dispatch.menu_facts() is None
    store.close()

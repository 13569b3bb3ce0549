"""Building test positions by naming points, checked by a round trip through the engine."""

from __future__ import annotations

from navakankari.engine.game import Game
from navakankari.engine.notation import SANMILL_RINGS
from navakankari.engine.presets import preset
from navakankari.engine.variants import game_from_position


def morris_fen(white: str, black: str, side: str = "w", hands: tuple[int, int] = (0, 0),
               pending: int = 0) -> str:
    """A Sanmill position string from space-separated point names."""
    w, b = set(white.split()), set(black.split())
    rings = "/".join("".join("O" if p in w else "@" if p in b else "*" for p in ring)
                     for ring in SANMILL_RINGS)
    placing = bool(hands[0] or hands[1])
    action = "r" if pending else ("p" if placing else "s")
    pw, pb = (pending, 0) if side == "w" else (0, pending)
    return (f"{rings} {side} {'p' if placing else 'm'} {action} {len(w)} {hands[0]} "
            f"{len(b)} {hands[1]} {pw} {pb} 0 0 0 0 0 0 1")


def morris_position(variant: str, white: str, black: str, side: str = "w",
                    hands: tuple[int, int] = (0, 0), pending: int = 0) -> Game:
    fen = morris_fen(white, black, side, hands, pending)
    game = game_from_position(preset(variant), fen)
    assert game.position() == fen, (game.position(), fen)
    return game


def random_playout(game: Game, rng, plies: int) -> Game:  # type: ignore[no-untyped-def]
    """Play up to `plies` random legal actions on `game` (fewer if it ends); returns it."""
    for _ in range(plies):
        actions = game.legal_actions()
        if not actions:
            break
        game.push(rng.choice(actions))
    return game

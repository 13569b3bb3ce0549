"""Helpers to write morris positions by point name instead of Sanmill's ring order."""

from __future__ import annotations

from navakankari.engine.notation import SANMILL_RINGS


def make_fen(white: str = "", black: str = "", side: str = "w", white_hand: int = 0,
             black_hand: int = 0, pending: int = 0, quiet: int = 0) -> str:
    """A Sanmill position string from space-separated point lists."""
    w, b = set(white.split()), set(black.split())
    rings = "/".join("".join("O" if p in w else "@" if p in b else "*" for p in ring)
                     for ring in SANMILL_RINGS)
    placing = white_hand or black_hand
    action = "r" if pending else ("p" if placing else "s")
    pw, pb = (pending, 0) if side == "w" else (0, pending)
    return (f"{rings} {side} {'p' if placing else 'm'} {action} {len(w)} {white_hand} {len(b)} "
            f"{black_hand} {pw} {pb} 0 0 0 0 0 {quiet} 1")

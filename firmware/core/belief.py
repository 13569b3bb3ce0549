"""What colour each pebble on the board is believed to be.

The sensors see no colour: the colour of each pebble on the board is believed from the
position it last matched. A pebble that stays put keeps its colour; one set down where the
game has a pebble is taken to be the game's (the words asked for it); one set down elsewhere
is of the colour lifted since, when that is one colour. So the way back (`wayback`) names
colours and pairs only pebbles that agree.
"""

from __future__ import annotations

from collections.abc import Mapping

from navakankari.engine.game import Game, Side


class ColourBelief:
    """The believed colour of each pebble on `game`'s board (None: cannot tell)."""

    def __init__(self, game: Game, observed: int,
                 known: Mapping[str, Side | None] | None = None) -> None:
        """`observed`: the settled occupancy; `known`: the colours believed before (a
        tracker of the game before); else those on the game's points are the game's."""
        self.game = game
        points = game.board.points
        known = known or {}
        self._colours: dict[int, Side | None] = {
            i: known.get(points[i], game.colour_at(i)) for i in _bits(observed)}
        self._lifted: list[Side] = []  #: colours lifted since the board last matched

    def follow(self, observed: int) -> None:
        """Keep the believed colours in step with the settled board."""
        for i in [i for i in self._colours if not observed >> i & 1]:
            side = self._colours.pop(i)
            if side is not None:
                self._lifted.append(side)
        for i in _bits(observed):
            if i in self._colours:
                continue
            side = self.game.colour_at(i)
            if side is None and len(set(self._lifted)) == 1:
                side = self._lifted[0]
            if side in self._lifted:
                self._lifted.remove(side)
            self._colours[i] = side

    def matched(self, observed: int) -> None:
        """The board matches the game: every pebble is the game's."""
        self._colours = {i: self.game.colour_at(i) for i in _bits(observed)}
        self._lifted = []

    def colours(self) -> dict[str, Side | None]:
        """Each pebble's point and believed colour."""
        points = self.game.board.points
        return {points[i]: side for i, side in self._colours.items()}

    def words(self) -> dict[str, str]:
        """Each pebble's point and believed colour as the way back names it ("" unknown)."""
        return {p: str(side) if side is not None else "" for p, side in self.colours().items()}


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]

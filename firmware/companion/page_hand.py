"""The page's hand on the simulated board: lift a pebble, put it down, place one, slide one
along the board's lines, set it aside, clear the board, set up the game's position.

The daemon sees these only through the simulated sensors, exactly as it sees real hands. Each
runs in a worker thread (a slide takes time), one at a time; a request naming no point of the
board, a pebble where there is none or a hand holding nothing is refused (`RequestError`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from navakankari.engine.game import Game

from navakankari.hal.words import N_, Phrase, phrase_of

from .server import RequestError

COLOURS = ("white", "black")

MAX_CHATTER = 5

NO_PEBBLE = N_("there is no pebble on {point}")
TAKEN = N_("{point} already holds a pebble")
EMPTY_HAND = N_("the hand holds no pebble")


class PageHand:
    """The simulator's one hand, and the pebble it holds (`holding`, its colour)."""

    def __init__(self) -> None:
        self.holding: str | None = None  # the colour of the pebble in the simulator's hand
        self._lock = asyncio.Lock()

    async def act(self, sim: Any, game: Callable[[], Game], request: dict[str, Any]) -> None:
        """Carry out `request` (its `op` and arguments) on the simulated board `sim`; `game`
        gives the game in play when the hand needs it (its board's points, its position)."""
        op = request.get("op")
        handlers = {"lift": self._lift, "put": self._put, "place": self._place,
                    "move": self._move, "drop": self._drop, "clear": self._clear,
                    "setup": self._setup}
        if op not in handlers:
            raise RequestError(Phrase(N_("hand: {field} must be one of {choices}, not {value}"),
                                      field="op", choices=", ".join(handlers), value=repr(op)))
        from navakankari.sim.board import SimulationError

        async with self._lock:  # one hand at a time, off the loop (slides take time)
            try:
                await asyncio.to_thread(handlers[op], sim, game, request)
            except SimulationError as exc:
                raise RequestError(Phrase(N_("hand: {problem}"), problem=phrase_of(exc))) from None

    # Each runs in a worker thread; the simulated sensors hand their edges to the loop.
    @staticmethod
    def _point(game: Callable[[], Game], request: dict[str, Any], key: str = "point") -> str:
        point = request.get(key)
        session_board = game().board
        if not isinstance(point, str) or not session_board.has_point(point):
            raise RequestError(Phrase(N_("hand: {field} must be a point of the board, not {value}"),
                                      field=key, value=repr(point)))
        return point

    def _lift(self, sim: Any, game: Callable[[], Game], request: dict[str, Any]) -> None:
        point = self._point(game, request)
        if self.holding is not None:
            raise RequestError(Phrase(N_("the hand already holds a pebble: put it down first")))
        if point not in sim.pebbles:
            raise RequestError(Phrase(NO_PEBBLE, point=point))
        self.holding = sim.lift(point, chatter=_chatter(request))

    def _put(self, sim: Any, game: Callable[[], Game], request: dict[str, Any]) -> None:
        point = self._point(game, request)
        if self.holding is None:
            raise RequestError(Phrase(EMPTY_HAND))
        if point in sim.pebbles:
            raise RequestError(Phrase(TAKEN, point=point))
        sim.place(point, self.holding, chatter=_chatter(request))
        self.holding = None

    def _place(self, sim: Any, game: Callable[[], Game], request: dict[str, Any]) -> None:
        point = self._point(game, request)
        colour = request.get("colour")
        if colour not in COLOURS:
            raise RequestError(Phrase(N_("hand: {field} must be {white} or {black}, not {value}"),
                                      field="colour", white="white", black="black",
                                      value=repr(colour)))
        if point in sim.pebbles:
            raise RequestError(Phrase(TAKEN, point=point))
        sim.place(point, colour, chatter=_chatter(request))

    def _move(self, sim: Any, game: Callable[[], Game], request: dict[str, Any]) -> None:
        start, end = self._point(game, request, "from"), self._point(game, request, "to")
        if start not in sim.pebbles:
            raise RequestError(Phrase(NO_PEBBLE, point=start))
        if end in sim.pebbles:
            raise RequestError(Phrase(TAKEN, point=end))
        sim.slide(slide_path(game().board, start, end))

    def _drop(self, sim: Any, game: Callable[[], Game], request: dict[str, Any]) -> None:
        if self.holding is None:
            raise RequestError(Phrase(EMPTY_HAND))
        self.holding = None

    def _clear(self, sim: Any, game: Callable[[], Game], request: dict[str, Any]) -> None:
        sim.clear()
        self.holding = None

    @staticmethod
    def _setup(sim: Any, game: Callable[[], Game], request: dict[str, Any]) -> None:
        """Set the pebbles as the game expects them: the start position of Nau Keti Keta, or
        the position to go back to after a takeback or a restart."""
        played = game()
        board = played.board
        for point in list(sim.pebbles):
            i = board.index(point) if board.has_point(point) else None
            if i is None or str(played.colour_at(i)) != sim.pebbles[point]:
                sim.lift(point)
        for i, point in enumerate(board.points):
            side = played.colour_at(i)
            if side is not None and point not in sim.pebbles:
                sim.place(point, str(side))


def _chatter(request: dict[str, Any]) -> int:
    """How many times the sensor bounces as a hand sets a pebble down or lifts it (a noisy
    hand, as real reed switches see it)."""
    chatter = request.get("chatter", 0)
    if isinstance(chatter, bool) or not isinstance(chatter, int) \
            or not 0 <= chatter <= MAX_CHATTER:
        raise RequestError(Phrase(N_("hand: {field} must be a whole number 0..{most}, not "
                                     "{value}"), field="chatter", most=MAX_CHATTER,
                                  value=repr(chatter)))
    return chatter


def slide_path(board: Any, start: str, end: str) -> list[str]:
    """The points a pebble slid from `start` to `end` passes over: along the board's line
    through both when there is one, else straight from one to the other."""
    for line in board.lines:
        if start in line and end in line:
            i, j = line.index(start), line.index(end)
            step = 1 if j > i else -1
            return [line[k] for k in range(i, j + step, step)]
    return [start, end]

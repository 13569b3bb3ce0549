"""What one turn of the daemon's loop must do, said by the session in one frozen value.

The loop hands the session what happened (the sensor events since the last turn, the time)
and gets this back: it then asks the computer or the advice worker, sets the brightness,
shows the frame and sleeps until the deadline, without asking the session anything more.
"""

from __future__ import annotations

from dataclasses import dataclass

from navakankari.engine.advice import AdviceRequest
from navakankari.engine.game import Game

from .broker import ComputerRequest
from .status import Status

RGB = tuple[int, int, int]


@dataclass(frozen=True, eq=False)
class Turn:
    """Everything the loop must do after a turn of the session (`Session.turn`)."""

    committed: tuple[str, ...]  #: the actions committed (already stored), in notation
    token: int  #: the game's token: a search asked under another one is stopped
    computer: ComputerRequest | None  #: the computer turn to choose (None after a failure)
    advice: AdviceRequest | None  #: the advice to make, if a side that gets help needs it
    frame: dict[str, RGB]  #: the LEDs' colours now
    status: Status  #: the status the frame shows (lit again while the store writes)
    game: Game  #: the game the frame shows (the loop copies it to light while a write runs)
    frame_change: float | None  #: when the frame changes by itself next (an animation)
    brightness: float  #: the fraction of the wiring profile's cap chosen on the board
    deadline: float | None  #: when the session next has something to do by itself
    unwritten: bool  #: raw sensor events wait to be written (`Session.flush_events`)

"""What each light means, in one table: role -> colour and animation.

The renderer (lights.py) only decides which role each point plays; change a colour or an
animation here and every board and the web page follow. Colours are before gamma and the
brightness cap, which the LED strip applies.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

RGB = tuple[int, int, int]


class Role(str, Enum):
    TURN_WHITE = "turn-white"  #: white to move: its movable pebbles
    TURN_BLACK = "turn-black"
    FREE_WHITE = "free-white"  #: white to place: the free points, dimly
    FREE_BLACK = "free-black"
    THINKING = "thinking"  #: the computer is choosing: its pebbles
    LIFTED = "lifted"  #: the pebble in the hand (where it came from)
    DESTINATION = "destination"  #: where the lifted pebble may go
    CAPTURE = "capture"  #: pebbles a capture chain under way still has to take off
    MILL = "mill"  #: the mill just closed
    TAKEABLE = "takeable"  #: pebbles that may be taken
    COMPUTER_FROM = "computer-from"  #: the computer's move: lift this pebble
    COMPUTER_TO = "computer-to"  #: ... and set it down here
    COMPUTER_TAKE = "computer-take"  #: ... and take this one off
    TO_EMPTY = "to-empty"  #: a point that must be emptied
    TO_FILL = "to-fill"  #: a point that must be filled
    PAIR_FROM = "pair-from"  #: the correction shown now: take the pebble from here...
    PAIR_TO = "pair-to"  #: ... and put it here
    WINNER_WHITE = "winner-white"  #: game over: the winner's pebbles
    WINNER_BLACK = "winner-black"
    DRAW = "draw"  #: game over, drawn: every pebble
    CONFIRM_CLEAR = "confirm-clear"  #: the board was cleared: hold a pebble here to end the game
    CONFIRM_HOLD = "confirm-hold"  #: ... a pebble is held there: keep holding
    CONFIRM_LIFT = "confirm-lift"  #: ... held long enough: lift it and the game ends
    SENSOR_FAULT = "sensor-fault"  #: a sensor that chatters without end (ignored until quiet)
    MENU_CHOICE = "menu-choice"  #: the menu: a choice (hold a pebble on it, then lift it)
    MENU_CURRENT = "menu-current"  #: ... the choice made last time
    MENU_SAME = "menu-same"  #: ... the same game as last time, at once
    MENU_BACK = "menu-back"  #: ... back one step
    MENU_TOOL = "menu-tool"  #: ... take back the last move; LED brightness
    TOSS_WHITE = "toss-white"  #: the toss's running light, on white's colour
    TOSS_BLACK = "toss-black"  #: ... on black's


class Animation(str, Enum):
    STEADY = "steady"
    BLINK = "blink"  #: on for half the period, off for half
    PULSE = "pulse"  #: brightness follows a smooth wave over the period


@dataclass(frozen=True)
class Look:
    colour: RGB
    animation: Animation = Animation.STEADY
    period: float = 1.0  #: seconds per cycle (blink, pulse)
    duration: float | None = None  #: seconds the animation runs, then steady (None: while shown)


WHITE_SIDE: RGB = (255, 180, 90)  # warm white for the light pebbles' side
BLACK_SIDE: RGB = (40, 90, 255)  # blue for the dark side (a dark pebble cannot glow "black")

PALETTE: dict[Role, Look] = {
    Role.TURN_WHITE: Look((90, 64, 32)),
    Role.TURN_BLACK: Look((14, 32, 90)),
    Role.FREE_WHITE: Look((24, 17, 8)),
    Role.FREE_BLACK: Look((4, 9, 26)),
    Role.THINKING: Look((60, 0, 90)),
    Role.LIFTED: Look((255, 255, 255)),
    Role.DESTINATION: Look((0, 200, 60)),
    Role.CAPTURE: Look((255, 40, 0), Animation.BLINK, 0.8),
    Role.MILL: Look((255, 200, 0)),
    Role.TAKEABLE: Look((255, 40, 0), Animation.BLINK, 0.8),
    Role.COMPUTER_FROM: Look((160, 0, 255), Animation.BLINK, 1.0),
    Role.COMPUTER_TO: Look((160, 0, 255)),
    Role.COMPUTER_TAKE: Look((255, 40, 0), Animation.BLINK, 1.0),
    Role.TO_EMPTY: Look((120, 0, 0)),
    Role.TO_FILL: Look((0, 90, 90)),
    Role.PAIR_FROM: Look((255, 0, 0), Animation.BLINK, 0.5),
    Role.PAIR_TO: Look((0, 255, 255), Animation.BLINK, 0.5),
    # A finished game left on the board pulses for a minute, then stays lit without
    # animating (an idle board sends no frames).
    Role.WINNER_WHITE: Look(WHITE_SIDE, Animation.PULSE, 2.0, duration=60.0),
    Role.WINNER_BLACK: Look(BLACK_SIDE, Animation.PULSE, 2.0, duration=60.0),
    Role.DRAW: Look((120, 120, 120), Animation.PULSE, 2.0, duration=60.0),
    Role.CONFIRM_CLEAR: Look((255, 110, 0), Animation.PULSE, 1.5),
    Role.CONFIRM_HOLD: Look((255, 110, 0), Animation.BLINK, 0.3),
    Role.CONFIRM_LIFT: Look((255, 255, 255)),
    Role.SENSOR_FAULT: Look((255, 0, 0), Animation.BLINK, 0.25),
    Role.MENU_CHOICE: Look((60, 140, 200)),
    Role.MENU_CURRENT: Look((200, 255, 255)),
    Role.MENU_SAME: Look((0, 220, 60), Animation.PULSE, 1.5),
    Role.MENU_BACK: Look((200, 60, 0)),
    Role.MENU_TOOL: Look((160, 0, 255)),
    Role.TOSS_WHITE: Look(WHITE_SIDE),
    Role.TOSS_BLACK: Look(BLACK_SIDE),
}

PULSE_STEP = 0.05
"""Pulses advance in steps of this many seconds (20 frames a second), so a pulsing board
sends a bounded number of frames and an idle one sends none."""

PAIR_PERIOD = 2.0
"""A mismatch with several moves to make shows one pair at a time, this long each."""


def check_palette(palette: dict[Role, Look]) -> None:
    """Every role has a look with colour values 0..255 and a positive period."""
    missing = [r.value for r in Role if r not in palette]
    if missing:
        raise ValueError(f"palette lacks roles: {', '.join(missing)}")
    for role, look in palette.items():
        if len(look.colour) != 3 or not all(0 <= c <= 255 for c in look.colour):
            raise ValueError(f"palette {role.value}: colour must be three values 0..255")
        if look.period <= 0:
            raise ValueError(f"palette {role.value}: period must be positive")

"""What each light means, in one table: role -> colour and animation.

The renderer (lights.py) only decides which role each point plays; change a colour or an
animation here and every board and the web page follow. Colours are what the renderer asks
for; the LED strip then applies gamma and the brightness cap (hal/leds.py), and that is what
the colours were chosen by: with gamma 2.6 and the shipped cap 0.25 an LED emits at most
64/255, an input below about 165 on every channel emits under 20/255, and one below about 40
emits nothing. So every role is a saturated colour with one channel near full, and dim roles
are dim in emitted light (FREE_* emits about 0.38 of its TURN_* colour), not in input value.
The comment beside each colour gives what a 0.25 cap emits. tests/firmware/test_palette.py
holds every role to at least 20/255 on one channel, and roles lit together to a minimum
distance in OKLab of the emitted light; tests/firmware/test_colour_vision.py holds them to
CIEDE2000 15 under simulated deuteranopia, protanopia and tritanopia too, or to a different
motion (steady, pulse, slow or fast blink: no blink between the two speeds).
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
    COMPUTER_TAKE = "computer-take"  #: ... and take this one off (the far-away player's too)
    REMOTE_FROM = "remote-from"  #: a far-away player's move: lift this pebble
    REMOTE_TO = "remote-to"  #: ... and set it down here
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
    MENU_CHOICE = "menu-choice"  #: the menu: a game to choose (hold a pebble on it, lift it)
    MENU_WHITE = "menu-white"  #: ... who plays white (and "white starts")
    MENU_BLACK = "menu-black"  #: ... who plays black (and "black starts")
    MENU_HELP_WHITE = "menu-help-white"  #: ... the help white's hand gets
    MENU_HELP_BLACK = "menu-help-black"  #: ... the help black's hand gets
    MENU_TOSS = "menu-toss"  #: ... a toss decides who starts
    MENU_CURRENT = "menu-current"  #: ... the choice made last time
    MENU_SAME = "menu-same"  #: ... the same game as last time, at once
    MENU_BACK = "menu-back"  #: ... back one step
    MENU_TAKEBACK = "menu-takeback"  #: ... take back the last move of the last game
    MENU_BRIGHTNESS = "menu-brightness"  #: ... the LED brightness, its levels, speech on or off
    TOSS_WHITE = "toss-white"  #: the toss's running light, on white's colour
    TOSS_BLACK = "toss-black"  #: ... on black's
    AWAITED = "awaited"  #: an online invitation waits for the other player: a calm chase
    REVIEW = "review"  #: the move a review on the page shows (its points), nothing else lit
    # Assistance (assist.py): the quality of each destination, as `navakankari hint` classes it
    QUALITY_KEEPS = "quality-keeps"  #: keeps the result
    QUALITY_WORSE = "quality-worse"  #: makes the game worse
    QUALITY_DROPS = "quality-drops"  #: loses a pebble soon or allows a mill
    QUALITY_LOSES = "quality-loses"  #: loses the game
    THREAT = "threat"  #: the opponent closes a mill (or sets up two, or a blockade) here next
    BLUNDER = "blunder"  #: the pebble just moved dropped the game's value: a few seconds
    HINT = "hint"  #: the best move, asked for: its pebble and where it goes
    ASKING = "asking"  #: the opponent's pebble lifted to ask for the best move: set it back


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


WHITE_SIDE: RGB = (255, 210, 137)  # warm white for the light pebbles' side; emits (64, 38, 13)
BLACK_SIDE: RGB = (0, 150, 235)  # azure for the dark side (a dark pebble cannot glow
# "black"); emits (0, 16, 52)
WHITE: RGB = (255, 255, 255)  # emits (64, 64, 64)
VIOLET: RGB = (188, 0, 255)  # the computer; emits (29, 0, 64)
LAVENDER: RGB = (180, 150, 255)  # a player far away, not the computer; emits (26, 15, 64)
RED_ORANGE: RGB = (255, 113, 0)  # a pebble to take off; emits (64, 8, 0)
ORANGE: RGB = (255, 160, 0)  # ending the game; emits (64, 19, 0)

PALETTE: dict[Role, Look] = {
    Role.TURN_WHITE: Look(WHITE_SIDE),
    Role.TURN_BLACK: Look(BLACK_SIDE),
    Role.FREE_WHITE: Look((176, 142, 92)),  # emits (24, 14, 5): the side's colour, dimmer
    Role.FREE_BLACK: Look((0, 103, 162)),  # emits (0, 6, 20)
    Role.THINKING: Look(VIOLET),
    Role.LIFTED: Look(WHITE),
    Role.DESTINATION: Look((0, 255, 123)),  # emits (0, 64, 10)
    Role.CAPTURE: Look(RED_ORANGE, Animation.BLINK, 0.8),
    Role.MILL: Look((255, 228, 0)),  # emits (64, 48, 0)
    Role.TAKEABLE: Look(RED_ORANGE, Animation.BLINK, 0.8),
    Role.COMPUTER_FROM: Look(VIOLET, Animation.BLINK, 1.0),
    Role.COMPUTER_TO: Look(VIOLET),
    Role.COMPUTER_TAKE: Look(RED_ORANGE, Animation.BLINK, 1.0),
    # A far-away player's move in a colour of its own, moving as the computer's does: the
    # only light clear of everything shown with it (the mill's yellow, the take's red-orange,
    # the reds and cyans of putting the board right) under every colour vision, other than
    # violet and blue (tests/firmware/colour_vision.py).
    Role.REMOTE_FROM: Look(LAVENDER, Animation.BLINK, 1.0),
    Role.REMOTE_TO: Look(LAVENDER),
    Role.TO_EMPTY: Look((179, 0, 0)),  # emits (25, 0, 0): PAIR_FROM, dimmer
    Role.TO_FILL: Look((0, 170, 170)),  # emits (0, 22, 22): PAIR_TO, dimmer
    Role.PAIR_FROM: Look((255, 0, 0), Animation.BLINK, 0.5),
    Role.PAIR_TO: Look((0, 255, 255), Animation.BLINK, 0.5),
    # A finished game left on the board pulses for a minute, then stays lit without
    # animating (an idle board sends no frames).
    Role.WINNER_WHITE: Look(WHITE_SIDE, Animation.PULSE, 5.0, duration=60.0),
    Role.WINNER_BLACK: Look(BLACK_SIDE, Animation.PULSE, 5.0, duration=60.0),
    Role.DRAW: Look(WHITE, Animation.PULSE, 5.0, duration=60.0),
    Role.CONFIRM_CLEAR: Look(ORANGE, Animation.PULSE, 1.5),
    Role.CONFIRM_HOLD: Look(ORANGE, Animation.BLINK, 0.3),
    Role.CONFIRM_LIFT: Look(WHITE),
    Role.SENSOR_FAULT: Look((255, 255, 0), Animation.BLINK, 0.25),  # emits (64, 64, 0)
    # Each step of the menu lights its choices in its own colour, so the board says which
    # question it asks: the game blue, white's player in white's colour and black's in
    # black's, each side's help in its colour pulsing, who starts in the two sides' colours
    # and the toss cyan, the brightness yellow. Take back and brightness differ too.
    Role.MENU_CHOICE: Look((0, 90, 255)),  # emits (0, 4, 64)
    Role.MENU_WHITE: Look(WHITE_SIDE),
    Role.MENU_BLACK: Look(BLACK_SIDE),
    Role.MENU_HELP_WHITE: Look(WHITE_SIDE, Animation.PULSE, 2.0),
    Role.MENU_HELP_BLACK: Look(BLACK_SIDE, Animation.PULSE, 2.0),
    Role.MENU_TOSS: Look((0, 255, 255)),  # emits (0, 64, 64)
    Role.MENU_CURRENT: Look(WHITE),
    # The board at rest breathes slowly (PULSE_LEVELS): the menu's "same as last time".
    Role.MENU_SAME: Look((0, 255, 123), Animation.PULSE, 5.0),  # emits (0, 64, 10)
    Role.MENU_BACK: Look(RED_ORANGE),
    Role.MENU_TAKEBACK: Look((255, 0, 150)),  # emits (64, 0, 16)
    Role.MENU_BRIGHTNESS: Look((255, 228, 0)),  # emits (64, 48, 0)
    Role.TOSS_WHITE: Look(WHITE_SIDE),
    Role.TOSS_BLACK: Look(BLACK_SIDE),
    Role.AWAITED: Look((0, 170, 255)),  # emits (0, 22, 64): calm blue, one point at a time
    Role.REVIEW: Look((255, 0, 255)),  # emits (64, 0, 64): no light of play has it
    # A traffic light that colour-blind eyes read too (tests/firmware/colour_vision.py):
    # light blue, a dim amber, a dim red and pink differ in lightness and in blue-yellow,
    # which deuteranopia and protanopia keep, and in red-green, which tritanopia keeps; a
    # green would be the white of a lifted pebble to a deuteranope.
    Role.QUALITY_KEEPS: Look((120, 210, 255)),  # emits (9, 38, 64)
    Role.QUALITY_WORSE: Look((180, 150, 40)),  # emits (26, 15, 0)
    Role.QUALITY_DROPS: Look((180, 0, 0)),  # emits (26, 0, 0)
    Role.QUALITY_LOSES: Look((255, 0, 150)),  # emits (64, 0, 16)
    Role.THREAT: Look((0, 60, 255), Animation.PULSE, 1.2),  # emits (0, 1, 64)
    Role.BLUNDER: Look((255, 0, 0), Animation.BLINK, 0.4),  # emits (64, 0, 0)
    Role.HINT: Look((0, 255, 255), Animation.BLINK, 1.0),  # emits (0, 64, 64): slowly
    Role.ASKING: Look((0, 255, 255), Animation.PULSE, 1.0),  # the best move's colour, calmly
}

QUALITY_ROLES: dict[str, Role] = {
    "keeps": Role.QUALITY_KEEPS, "worse": Role.QUALITY_WORSE,
    "drops": Role.QUALITY_DROPS, "loses": Role.QUALITY_LOSES,
}
"""The engine's quality classes (navakankari.engine.hint.Quality values) -> their roles."""

TOLD_APART_OVER_TIME: tuple[tuple[Role, Role], ...] = (
    (Role.TURN_WHITE, Role.TURN_BLACK),
    (Role.FREE_WHITE, Role.FREE_BLACK),
    (Role.WINNER_WHITE, Role.WINNER_BLACK),
    (Role.TOSS_WHITE, Role.TOSS_BLACK),
    (Role.MENU_WHITE, Role.MENU_BLACK),  # the steps "who plays white" and "... black"
    (Role.MENU_HELP_WHITE, Role.MENU_HELP_BLACK),
    (Role.MENU_WHITE, Role.MENU_HELP_WHITE),  # a side's player, then its help
    (Role.MENU_BLACK, Role.MENU_HELP_BLACK),
)
"""Roles never lit together whose colours must still say which side they mean."""

FAST_BLINK = 0.5
"""A blink of this period or shorter is a fast one."""
SLOW_BLINK = 0.8
"""... of this period or longer a slow one: a blink between would be told from neither."""


def blink_speed(period: float) -> str:
    """"fast" or "slow", the blink speeds an eye tells apart (FAST_BLINK, SLOW_BLINK), or
    "between" for a period told from neither (check_palette refuses it)."""
    if period <= FAST_BLINK:
        return "fast"
    if period >= SLOW_BLINK:
        return "slow"
    return "between"


PULSE_FLOOR = 0.7
"""A pulse scales the colour between this and 1. After gamma 2.6 the dim end emits
0.7 ** 2.6 = 0.40 of the bright end: a full channel still emits 25/255 under a 0.25 cap,
where the old floor of 0.25 emitted 1/255 (dark)."""

PULSE_LEVELS = 8
"""A pulse shows this many steps of brightness between PULSE_FLOOR and full (and back), and
sends a frame only when its wave crosses to the next step: 16 frames a cycle, closer together
where the wave is steep. A step changes the light by under 4 % (after gamma), about the step 20
evenly spaced frames a second gave the old 1.5 s wave at its steepest; the slow breath of a
resting board (the menu, a game over: 5 s) so costs about 3 frames a second."""


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
        if look.animation == Animation.BLINK and blink_speed(look.period) == "between":
            raise ValueError(f"palette {role.value}: a blink of {look.period:g} s is told "
                             f"from neither a fast ({FAST_BLINK:g} s) nor a slow one "
                             f"({SLOW_BLINK:g} s)")

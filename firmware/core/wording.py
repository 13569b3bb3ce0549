"""The tracker's status and the game's outcome in words, for the web page and the terminal.

A family at the board reads these: they say what to do with the hands, naming points.
"""

from __future__ import annotations

from collections.abc import Mapping

from navakankari.engine.game import Game, Outcome, Reason, Side
from navakankari.engine.variants import new_game

from .menu import player_words
from .palette import PALETTE, Animation, Look, Role, blink_speed
from .status import MismatchReason, Status, StatusKind

REASONS: dict[Reason, str] = {
    Reason.TOO_FEW_PEBBLES: "{loser} has fewer than three pebbles",
    Reason.BLOCKED: "{loser} cannot move",
    Reason.BOARD_FULL: "the board is full",
    Reason.REPETITION: "the same position came up three times",
    Reason.QUIET_MOVES: "too many moves without a capture",
    Reason.ALL_TAKEN: "{loser} has no pebbles left",
    Reason.NO_CAPTURES: "too many moves without a capture",
    Reason.ACTION_LIMIT: "the game went on too long",
}


def _list(points: tuple[str, ...] | list[str]) -> str:
    points = list(points)
    if len(points) <= 1:
        return "".join(points)
    return ", ".join(points[:-1]) + " or " + points[-1]


def _all(points: tuple[str, ...] | list[str]) -> str:
    points = list(points)
    if len(points) <= 1:
        return "".join(points)
    return ", ".join(points[:-1]) + " and " + points[-1]


def outcome_text(outcome: Outcome) -> str:
    """`white wins: black has fewer than three pebbles`, `draw: the board is full`."""
    if outcome.winner is None:
        head, loser = "draw", ""
    else:
        head, loser = f"{outcome.winner} wins", str(outcome.winner.other)
    why = REASONS[outcome.reason].format(loser=loser)
    return f"{head}: {why}"


def status_text(game: Game, status: Status, far_away: str = "") -> str:
    """What the hands should do now, in one sentence (and any sensor fault after it).
    `far_away` names the player of the side to act when that player is not at this board
    (the other board's name): the words then speak of them, not of a computer."""
    text = _status_text(game, status, far_away)
    if status.faulty:
        text += (f" (the sensor of {_all(status.faulty)} chatters: check its wiring and "
                 "magnet; it is ignored until it is quiet)")
    return text


def _status_text(game: Game, status: Status, far_away: str = "") -> str:
    turn = status.turn
    kind = status.kind
    if kind is StatusKind.MENU:
        return _menu_text(status)
    if kind is StatusKind.CLEARING:
        hold = f"{status.confirm_hold:g}"
        if status.armed:
            return f"lift the pebble from {status.confirm_point} now to end the game"
        if status.holding:
            return f"keep the pebble on {status.confirm_point} for {hold} s, then lift it"
        return (f"the board was cleared: to end the game, hold a pebble on "
                f"{status.confirm_point} for {hold} s, then lift it; or put the pebbles back")
    if kind is StatusKind.OVER or status.outcome is not None:
        return outcome_text(status.outcome) if status.outcome else "the game is over"
    if status.asking:
        return (f"asking for the best move: set the {Side[turn.upper()].other} pebble back "
                f"on {_all(status.asking)}")
    if kind is StatusKind.MISMATCH:
        return _mismatch_text(game, status)
    who = f"{far_away} ({turn})" if far_away else turn
    if kind is StatusKind.EXECUTING:
        return f"{who} plays {' '.join(status.forced)}: " + ", then ".join(_forced_parts(status))
    if kind is StatusKind.THINKING:
        return f"{who} is to play" if far_away else f"{turn} (the computer) is thinking"
    if kind is StatusKind.REMOVAL:
        if status.takeable:
            return (f"{turn} closed a mill: lift one of the lit {Side[turn.upper()].other} "
                    f"pebbles ({_list(status.takeable)}) to take it")
        return f"{turn} closed a mill"
    if kind is StatusKind.IN_PROGRESS:
        if status.captures:
            return (f"take the jumped {Side[turn.upper()].other} "
                    f"pebble{'s' if len(status.captures) > 1 else ''} off {_all(status.captures)}")
        if status.lifted and status.destinations:
            return (f"{turn} lifted the pebble from {_all(status.lifted)}: put it on a lit point "
                    f"({_list(status.destinations)})")
        if status.lifted:
            return f"the pebble from {_all(status.lifted)} is lifted"
        if status.placed:
            return f"a pebble was put on {_all(status.placed)}"
        return f"{turn} is moving"
    # idle
    if game.in_hand(Side[turn.upper()]):
        return f"{turn} to place a pebble on a free point"
    return f"{turn} to move a pebble"


def next_game_text(game: Game, *, menu: bool, auto_new_game: bool) -> str:
    """After the end of a game, how the board starts the next one (`Session._after`)."""
    clear = "to play again, take every pebble off the board"
    if menu:
        return f"{clear}, then choose on its menu"
    if auto_new_game:
        if new_game(game.rules).occupancy:
            return "to play again, set the pebbles out on their starting points"
        return f"{clear} (a new game of {game.rules.name} starts)"
    return "to play again, start a new game"


MENU_STEPS = {"variant": "the game", "white": "who plays white", "black": "who plays black",
              "assist-white": "the help white gets", "assist-black": "the help black gets",
              "starter": "who starts", "toss": "who starts (a toss)",
              "brightness": "the LED brightness"}

NOT_CHOSEN = "not chosen yet"


def menu_facts(step: str, so_far: Mapping[str, str]) -> dict[str, str]:
    """The page's facts while the menu is lit, when no game is in play: the step, and the
    game and players chosen so far (`Menu.so_far`), never the last game's as if it went on."""
    white, black = (player_words(so_far[side]) if side in so_far else NOT_CHOSEN
                    for side in ("white", "black"))
    return {"step": f"the board's menu: choose {MENU_STEPS.get(step, step)}",
            "variant": so_far.get("variant", NOT_CHOSEN), "white": white, "black": black}


def _menu_text(status: Status) -> str:
    """The menu's step: what the lit points mean and how to choose one."""
    so_far = f" ({', '.join(status.picked)})" if status.picked else ""
    if status.toss_ring:
        return (f"a toss{so_far}: the light runs round the board and stops on white's or "
                "black's colour; that side starts")
    words = {point: label for point, _, label in status.choices}
    hold = f"{status.confirm_hold:g}"
    if status.holding and status.confirm_point in words:
        label = words[status.confirm_point]
        if status.armed:
            return f"lift the pebble from {status.confirm_point} now to choose {label}"
        return f"keep the pebble on {status.confirm_point} for {hold} s, then lift it, " \
               f"to choose {label}"
    lit = "; ".join(f"{point} {label}" for point, _, label in status.choices)
    return (f"menu, choose {MENU_STEPS.get(status.menu_step, status.menu_step)}{so_far}: "
            f"hold a pebble on a lit point for {hold} s, then lift it ({lit})")


def _pebbles(colour: str, points: list[str]) -> str:
    """`the white pebble on c3`, `the black pebbles on a1 and d4`, `the pebble on g7`."""
    colour = f"{colour} " if colour else ""
    return f"the {colour}pebble{'s' if len(points) > 1 else ''} on {_all(points)}"


def _forced_parts(status: Status) -> list[str]:
    mover = status.turn
    taken = str(Side[mover.upper()].other)
    parts = []
    for a, b in zip(status.forced_from, status.forced_to):
        parts.append(f"move the {mover} pebble from {a} to {b}")
    if not status.forced_from and status.forced_to:
        parts.append(f"put a {mover} pebble on {_all(status.forced_to)}")
    if status.forced_take:
        many = len(status.forced_take) > 1
        parts.append(f"take the {taken} pebble{'s' if many else ''} off "
                     f"{_all(status.forced_take)}")
    return parts


def _step_words(steps: tuple[tuple[str, str, str, str], ...]) -> list[str]:
    """The way back (`wayback.restore_steps`) in words, in its order; lifts and sets of
    one colour that follow each other are said together."""
    words: list[str] = []
    k = 0
    while k < len(steps):
        kind, colour, a, b = steps[k]
        if kind == "move":
            words.append(f"move the {colour} pebble from {a} to {b}")
            k += 1
            continue
        group = [steps[k]]
        while k + len(group) < len(steps) and steps[k + len(group)][:2] == (kind, colour):
            group.append(steps[k + len(group)])
        k += len(group)
        if kind == "lift":
            words.append(f"lift {_pebbles(colour, [s[2] for s in group])}")
        else:
            points = [s[3] for s in group]
            words.append(f"set a {colour} pebble on {points[0]}" if len(points) == 1
                         else f"set {colour} pebbles on {_all(points)}")
    return words


def _mismatch_text(game: Game, status: Status) -> str:
    steps = _step_words(status.steps)
    if status.forced and status.reason is not MismatchReason.RESTORE:
        # Legal or not, it is not the move given: say which one is, after the way back.
        head = f"{status.turn} plays {' '.join(status.forced)}, not that"
        return f"{head}: " + "; ".join(steps + ["then " + ", then ".join(_forced_parts(status))])
    head = ("set the board to the game's position" if status.reason is MismatchReason.RESTORE
            else "that is not a legal move")
    return f"{head}: " + "; ".join(steps) if steps else head


# -- the lights' legend ------------------------------------------------------------------------
LEGEND: tuple[tuple[str, tuple[tuple[Role, str, str], ...]], ...] = (
    ("playing", (
        (Role.TURN_WHITE, "warm white", "white to move: the pebbles that can move"),
        (Role.TURN_BLACK, "azure", "black to move: the pebbles that can move"),
        (Role.FREE_WHITE, "dim warm white", "white to place: the free points"),
        (Role.FREE_BLACK, "dim azure", "black to place: the free points"),
        (Role.MILL, "yellow", "the mill just closed"),
        (Role.TAKEABLE, "red-orange", "a pebble that may be taken: lift one"),
    )),
    ("a pebble in the hand", (
        (Role.LIFTED, "white", "where the lifted pebble came from"),
        (Role.DESTINATION, "green", "where it may go"),
        (Role.CAPTURE, "red-orange", "a jumped pebble still to take off"),
    )),
    ("the computer's move (or a player's far away)", (
        (Role.THINKING, "violet", "the computer is choosing: its pebbles"),
        (Role.COMPUTER_FROM, "violet", "lift this pebble"),
        (Role.COMPUTER_TO, "violet", "and set it down here"),
        (Role.COMPUTER_TAKE, "red-orange", "and take this pebble off"),
    )),
    ("help (assistance 2 to 4)", (
        (Role.QUALITY_KEEPS, "light blue", "a good move: the game stays as it is"),
        (Role.QUALITY_WORSE, "dim amber", "a weaker move: the game gets worse"),
        (Role.QUALITY_DROPS, "dim red", "a mistake: a pebble is lost soon, or a mill let in"),
        (Role.QUALITY_LOSES, "pink", "this loses the game"),
        (Role.THREAT, "blue", "the other side closes a mill here next (or sets up two, or "
                              "shuts every pebble in)"),
        (Role.BLUNDER, "red", "the move just played was a mistake: put it back to try again"),
        (Role.HINT, "cyan", "the best move, asked for: its pebble and where it goes"),
        (Role.ASKING, "cyan", "the best move is asked for: set the lifted pebble back"),
    )),
    ("putting the board right", (
        (Role.TO_EMPTY, "dim red", "take the pebble off this point"),
        (Role.TO_FILL, "dim cyan", "put a pebble on this point"),
        (Role.PAIR_FROM, "red", "move the pebble from here"),
        (Role.PAIR_TO, "cyan", "to here"),
    )),
    ("ending a game by clearing the board", (
        (Role.CONFIRM_CLEAR, "orange", "hold a pebble here to end the game"),
        (Role.CONFIRM_HOLD, "orange", "keep holding the pebble"),
        (Role.CONFIRM_LIFT, "white", "held long enough: lift it and the game ends"),
    )),
    ("game over", (
        (Role.WINNER_WHITE, "warm white", "white won: its pebbles"),
        (Role.WINNER_BLACK, "azure", "black won: its pebbles"),
        (Role.DRAW, "white", "a draw: every pebble"),
    )),
    ("the menu", (
        (Role.MENU_CHOICE, "blue", "a game to choose: hold a pebble on it, then lift it"),
        (Role.MENU_WHITE, "warm white", "who plays white (or: white starts)"),
        (Role.MENU_BLACK, "azure", "who plays black (or: black starts)"),
        (Role.MENU_HELP_WHITE, "warm white", "the help white's hand gets"),
        (Role.MENU_HELP_BLACK, "azure", "the help black's hand gets"),
        (Role.MENU_TOSS, "cyan", "a toss decides who starts"),
        (Role.MENU_CURRENT, "white", "the choice made last time"),
        (Role.MENU_SAME, "green", "the same game as last time, at once"),
        (Role.MENU_BACK, "red-orange", "back one step"),
        (Role.MENU_TAKEBACK, "pink", "take back the last move of the last game"),
        (Role.MENU_BRIGHTNESS, "yellow", "the lights' brightness, and its levels"),
        (Role.TOSS_WHITE, "warm white", "the toss: white's colour"),
        (Role.TOSS_BLACK, "azure", "the toss: black's colour"),
        (Role.AWAITED, "light blue", "a game far away waits for the other player (one light "
                                     "walks round)"),
    )),
    ("faults", (
        (Role.SENSOR_FAULT, "yellow", "a sensor that chatters: check its wiring and magnet"),
    )),
)
"""Every light the board shows, in words: (section, ((role, its colour, what it means)))."""


def motion_words(look: Look) -> str:
    """How a light moves, in words: steady, pulses, blinks slowly or fast."""
    if look.animation == Animation.BLINK:
        return "blinks fast" if blink_speed(look.period) == "fast" else "blinks slowly"
    return "pulses" if look.animation == Animation.PULSE else "steady"


def legend_table(palette: Mapping[Role, Look] = PALETTE) -> str:
    """The legend as a Markdown table (the README holds it; a test compares)."""
    lines = ["| light | colour | means |", "|---|---|---|"]
    for section, rows in LEGEND:
        lines.append(f"| **{section}** | | |")
        for role, colour, means in rows:
            lines.append(f"| `{role.value}` | {colour}, {motion_words(palette[role])} | {means} |")
    return "\n".join(lines)

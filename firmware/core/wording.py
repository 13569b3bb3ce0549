"""The tracker's status and the game's outcome in words, for the web page and the terminal.

A family at the board reads these: they say what to do with the hands, naming points. Every
sentence is one message of the catalogs (firmware/i18n/), its points and players in named places;
`tr` gives the language (English when none is given).
"""

from __future__ import annotations

from collections.abc import Mapping

from navakankari.engine.game import Game, Outcome, Side
from navakankari.engine.hint_words import side_words
from navakankari.engine.outcome import REASONS as REASONS
from navakankari.engine.outcome import outcome_wording, side_wording
from navakankari.engine.translator import ENGLISH, Translator
from navakankari.engine.variants import new_game
from navakankari.hal.words import N_, Phrase, kept_phrase

from .menu import player_words, variant_label
from .palette import PALETTE, Animation, Look, Role, blink_speed
from .status import MismatchReason, Status, StatusKind


def side_phrase(side: Side | str) -> Phrase:
    """A side ("white", "black") kept as a phrase, for a sentence worded where it is shown
    (a refusal the page words in its language)."""
    phrase = kept_phrase(side_wording(side if isinstance(side, Side) else Side[side.upper()]))
    assert phrase is not None  # a wording is always one
    return phrase


def _side(name: str, tr: Translator) -> str:
    """A side's name ("white", "black") as a player is named in the language."""
    return side_words(Side[name.upper()], tr)


def _colour(name: str, tr: Translator) -> str:
    """A side's name as the colour of a pebble ("the white pebble")."""
    if name == "white":
        return tr.pgettext("pebble", "white")
    return tr.pgettext("pebble", "black") if name == "black" else name


def _other(turn: str) -> str:
    return str(Side[turn.upper()].other)


def _list(points: tuple[str, ...] | list[str], tr: Translator = ENGLISH) -> str:
    """`a1, d4 or g7`: a choice of points."""
    points = list(points)
    if len(points) <= 1:
        return "".join(points)
    return tr.gettext("{points} or {last}").format(points=", ".join(points[:-1]),
                                                   last=points[-1])


def _all(points: tuple[str, ...] | list[str], tr: Translator = ENGLISH) -> str:
    """`a1, d4 and g7`: every one of the points."""
    points = list(points)
    if len(points) <= 1:
        return "".join(points)
    return tr.gettext("{points} and {last}").format(points=", ".join(points[:-1]),
                                                    last=points[-1])


def _then(parts: list[str], tr: Translator) -> str:
    """Things to do in order: `move ..., then take ...`."""
    text = parts[0]
    for part in parts[1:]:
        text = tr.gettext("{first}, then {next}").format(first=text, next=part)
    return text


def outcome_text(outcome: Outcome, tr: Translator = ENGLISH) -> str:
    """`white wins: black has fewer than three pebbles`, `draw: the board is full`."""
    return outcome_wording(outcome).words(tr)


def status_text(game: Game, status: Status, far_away: str = "",
                tr: Translator = ENGLISH, *, level: int | None = None) -> str:
    """What the hands should do now, in one sentence (and any sensor fault after it).
    `far_away` names the player of the side to act when that player is not at this board
    (the other board's name): the words then speak of them, not of a computer. `level`: the
    side to act is the computer adapting to the person, at that level (`adaptive_level`)."""
    text = _status_text(game, status, far_away, tr, level)
    if status.faulty:
        text = tr.ngettext(
            "{status} (the sensor of {points} chatters: check its wiring and magnet; it is "
            "ignored until it is quiet)",
            "{status} (the sensors of {points} chatter: check their wiring and magnets; they "
            "are ignored until they are quiet)", len(status.faulty)
        ).format(status=text, points=_all(status.faulty, tr))
    return text


def _status_text(game: Game, status: Status, far_away: str, tr: Translator,
                 level: int | None) -> str:
    turn = status.turn
    kind = status.kind
    if kind is StatusKind.MENU:
        return _menu_text(status, tr)
    if kind is StatusKind.CLEARING:
        places = {"point": status.confirm_point, "seconds": f"{status.confirm_hold:g}"}
        if status.armed:
            return tr.gettext("lift the pebble from {point} now to end the game").format(**places)
        if status.holding:
            return tr.gettext("keep the pebble on {point} for {seconds} s, then lift it"
                              ).format(**places)
        return tr.gettext("the board was cleared: to end the game, hold a pebble on {point} "
                          "for {seconds} s, then lift it; or put the pebbles back"
                          ).format(**places)
    if kind is StatusKind.OVER or status.outcome is not None:
        return outcome_text(status.outcome, tr) if status.outcome else tr.gettext(
            "the game is over")
    side = _side(turn, tr)
    if status.asking:
        return tr.ngettext("asking for the best move: set the {colour} pebble back on {points}",
                           "asking for the best move: set the {colour} pebbles back on "
                           "{points}", len(status.asking)
                           ).format(colour=_colour(_other(turn), tr),
                                    points=_all(status.asking, tr))
    if kind is StatusKind.MISMATCH:
        return _mismatch_text(game, status, tr)
    who = tr.gettext("{name} ({side})").format(name=far_away, side=side) if far_away else side
    if kind is StatusKind.EXECUTING:
        return tr.gettext("{side} plays {action}: {steps}").format(
            side=who, action=" ".join(status.forced), steps=_then(_forced_parts(status, tr), tr))
    if kind is StatusKind.THINKING:
        if far_away:
            return tr.gettext("{side} is to play").format(side=who)
        if level is not None:
            return tr.gettext("{side} (the computer, adapting, now level {level}) is thinking"
                              ).format(side=side, level=level)
        return tr.gettext("{side} (the computer) is thinking").format(side=side)
    if kind is StatusKind.REMOVAL:
        return _removal_text(status, side, tr)
    if kind is StatusKind.IN_PROGRESS:
        if status.captures:
            return tr.ngettext("take the jumped {colour} pebble off {points}",
                               "take the jumped {colour} pebbles off {points}",
                               len(status.captures)).format(
                colour=_colour(_other(turn), tr), points=_all(status.captures, tr))
        if status.lifted and status.destinations:
            return tr.gettext("{side} lifted the pebble from {points}: put it on a lit point "
                              "({choices})").format(side=side, points=_all(status.lifted, tr),
                                                    choices=_list(status.destinations, tr))
        if status.lifted:
            return tr.gettext("the pebble from {points} is lifted").format(
                points=_all(status.lifted, tr))
        if status.placed:
            return tr.gettext("a pebble was put on {points}").format(
                points=_all(status.placed, tr))
        return tr.gettext("{side} is moving").format(side=side)
    # idle
    if game.in_hand(Side[turn.upper()]):
        return tr.gettext("{side} to place a pebble on a free point").format(side=side)
    return tr.gettext("{side} to move a pebble").format(side=side)


def next_game_text(game: Game, *, menu: bool, auto_new_game: bool,
                   tr: Translator = ENGLISH) -> str:
    """After the end of a game, how the board starts the next one (`Session._after`)."""
    if menu:
        return tr.gettext("to play again, take every pebble off the board, then choose on its "
                          "menu")
    if auto_new_game:
        if new_game(game.rules).occupancy:
            return tr.gettext("to play again, set the pebbles out on their starting points")
        return tr.gettext("to play again, take every pebble off the board (a new game of "
                          "{variant} starts)").format(variant=variant_label(game.rules.name, tr))
    return tr.gettext("to play again, start a new game")


MENU_STEPS = {"variant": N_("the game"), "white": N_("who plays white"),
              "black": N_("who plays black"),
              "assist-white": N_("the help white gets"), "assist-black": N_("the help black gets"),
              "starter": N_("who starts"), "toss": N_("who starts (a toss)"),
              "brightness": N_("the LED brightness"), "speech": N_("speech on or off"),
              "language": N_("the language")}

NOT_CHOSEN = N_("not chosen yet")


def step_words(step: str, tr: Translator = ENGLISH) -> str:
    """A menu step as the page and the status line name it: `who plays white`."""
    return tr.gettext(MENU_STEPS[step]) if step in MENU_STEPS else step


def menu_facts(step: str, so_far: Mapping[str, str],
               tr: Translator = ENGLISH) -> dict[str, str]:
    """The page's facts while the menu is lit, when no game is in play: the step, and the
    game and players chosen so far (`Menu.so_far`), never the last game's as if it went on."""
    white, black = (player_words(so_far[side], tr) if side in so_far else tr.gettext(NOT_CHOSEN)
                    for side in ("white", "black"))
    variant = (variant_label(so_far["variant"], tr) if "variant" in so_far
               else tr.gettext(NOT_CHOSEN))
    return {"step": tr.gettext("the board's menu: choose {step}").format(
                step=step_words(step, tr)),
            "variant": variant, "white": white, "black": black}


def _menu_text(status: Status, tr: Translator) -> str:
    """The menu's step: what the lit points mean and how to choose one."""
    picked = ", ".join(status.picked)
    if status.toss_ring:
        if picked:
            return tr.gettext("a toss ({picked}): the light runs round the board and stops on "
                              "white's or black's colour; that side starts").format(picked=picked)
        return tr.gettext("a toss: the light runs round the board and stops on white's or "
                          "black's colour; that side starts")
    words = {point: label for point, _, label in status.choices}
    places = {"point": status.confirm_point, "seconds": f"{status.confirm_hold:g}",
              "choice": words.get(status.confirm_point, ""), "picked": picked,
              "step": step_words(status.menu_step, tr),
              "lit": "; ".join(f"{point} {label}" for point, _, label in status.choices)}
    if status.holding and status.confirm_point in words:
        if status.armed:
            return tr.gettext("lift the pebble from {point} now to choose {choice}"
                              ).format(**places)
        return tr.gettext("keep the pebble on {point} for {seconds} s, then lift it, to "
                          "choose {choice}").format(**places)
    if picked:
        return tr.gettext("menu, choose {step} ({picked}): hold a pebble on a lit point for "
                          "{seconds} s, then lift it ({lit})").format(**places)
    return tr.gettext("menu, choose {step}: hold a pebble on a lit point for {seconds} s, then "
                      "lift it ({lit})").format(**places)


def _removal_text(status: Status, side: str, tr: Translator) -> str:
    """A removal owed: the mill closed, or how many pebbles are still to take after one
    was taken (two mills closed at once, where each takes one)."""
    places = {"side": side, "colour": _colour(_other(status.turn), tr), "n": status.owed,
              "points": _list(status.takeable, tr)}
    if status.taken and status.owed:
        if status.takeable:
            return tr.ngettext("{side} takes {n} more {colour} pebble: lift one of the lit "
                               "ones ({points})",
                               "{side} takes {n} more {colour} pebbles: lift one of the lit "
                               "ones ({points})", status.owed).format(**places)
        return tr.ngettext("{side} takes {n} more {colour} pebble",
                           "{side} takes {n} more {colour} pebbles", status.owed
                           ).format(**places)
    if status.owed > 1:
        if status.takeable:
            return tr.ngettext("{side} closed {n} mill: take {n} {colour} pebble, one at a "
                               "time: lift one of the lit ones ({points})",
                               "{side} closed {n} mills: take {n} {colour} pebbles, one at a "
                               "time: lift one of the lit ones ({points})",
                               status.owed).format(**places)
        return tr.ngettext("{side} closed {n} mill", "{side} closed {n} mills",
                           status.owed).format(**places)
    if status.takeable:
        return tr.gettext("{side} closed a mill: lift one of the lit {colour} pebbles "
                          "({points}) to take it").format(**places)
    return tr.gettext("{side} closed a mill").format(side=side)


def _forced_parts(status: Status, tr: Translator) -> list[str]:
    mover = _colour(status.turn, tr)
    parts = [tr.gettext("move the {colour} pebble from {start} to {end}").format(
                 colour=mover, start=a, end=b)
             for a, b in zip(status.forced_from, status.forced_to)]
    if not status.forced_from and status.forced_to:
        parts.append(tr.gettext("put a {colour} pebble on {points}").format(
            colour=mover, points=_all(status.forced_to, tr)))
    if status.forced_take:
        parts.append(tr.ngettext("take the {colour} pebble off {points}",
                                 "take the {colour} pebbles off {points}",
                                 len(status.forced_take)).format(
            colour=_colour(_other(status.turn), tr), points=_all(status.forced_take, tr)))
    return parts


def _step_words(steps: tuple[tuple[str, str, str, str], ...], tr: Translator) -> list[str]:
    """The way back (`wayback.restore_steps`) in words, in its order; lifts and sets of
    one colour that follow each other are said together."""
    words: list[str] = []
    k = 0
    while k < len(steps):
        kind, colour, a, b = steps[k]
        if kind == "move":
            words.append(_move_back(colour, a, b, tr))
            k += 1
            continue
        group = [steps[k]]
        while k + len(group) < len(steps) and steps[k + len(group)][:2] == (kind, colour):
            group.append(steps[k + len(group)])
        k += len(group)
        points = [s[2] for s in group] if kind == "lift" else [s[3] for s in group]
        words.append(_lift_or_set(kind, colour, points, tr))
    return words


def _move_back(colour: str, start: str, end: str, tr: Translator) -> str:
    if colour:
        return tr.gettext("move the {colour} pebble from {start} to {end}").format(
            colour=_colour(colour, tr), start=start, end=end)
    return tr.gettext("move the pebble from {start} to {end}").format(start=start, end=end)


def _lift_or_set(kind: str, colour: str, points: list[str], tr: Translator) -> str:
    """`lift the white pebbles on a1 and d4`, `set a black pebble on c3`."""
    places = {"colour": _colour(colour, tr), "points": _all(points, tr)}
    n = len(points)
    if kind == "lift":
        if colour:
            text = tr.ngettext("lift the {colour} pebble on {points}",
                               "lift the {colour} pebbles on {points}", n)
        else:
            text = tr.ngettext("lift the pebble on {points}", "lift the pebbles on {points}", n)
    elif colour:
        text = tr.ngettext("set a {colour} pebble on {points}",
                           "set {colour} pebbles on {points}", n)
    else:
        text = tr.ngettext("set a pebble on {points}", "set pebbles on {points}", n)
    return text.format(**places)


def _mismatch_text(game: Game, status: Status, tr: Translator) -> str:
    steps = _step_words(status.steps, tr)
    if status.forced and status.reason is not MismatchReason.RESTORE:
        # Legal or not, it is not the move given: say which one is, after the way back.
        places = {"side": _side(status.turn, tr), "action": " ".join(status.forced),
                  "steps": "; ".join(steps),
                  "then": _then(_forced_parts(status, tr), tr)}
        if steps:
            return tr.gettext("{side} plays {action}, not that: {steps}; then {then}"
                              ).format(**places)
        return tr.gettext("{side} plays {action}, not that: then {then}").format(**places)
    if status.reason is MismatchReason.RESTORE:
        if steps:
            return tr.gettext("set the board to the game's position: {steps}").format(
                steps="; ".join(steps))
        return tr.gettext("set the board to the game's position")
    if steps:
        return tr.gettext("that is not a legal move: {steps}").format(steps="; ".join(steps))
    return tr.gettext("that is not a legal move")


# -- the lights' legend ------------------------------------------------------------------------
LEGEND: tuple[tuple[str, tuple[tuple[Role, str, str], ...]], ...] = (
    (N_("playing"), (
        (Role.TURN_WHITE, N_("warm white"), N_("white to move: the pebbles that can move")),
        (Role.TURN_BLACK, N_("azure"), N_("black to move: the pebbles that can move")),
        (Role.FREE_WHITE, N_("dim warm white"), N_("white to place: the free points")),
        (Role.FREE_BLACK, N_("dim azure"), N_("black to place: the free points")),
        (Role.MILL, N_("yellow"), N_("the mill just closed")),
        (Role.TAKEABLE, N_("red-orange"), N_("a pebble that may be taken: lift one")),
    )),
    (N_("a pebble in the hand"), (
        (Role.LIFTED, N_("white"), N_("where the lifted pebble came from")),
        (Role.DESTINATION, N_("green"), N_("where it may go")),
        (Role.CAPTURE, N_("red-orange"), N_("a jumped pebble still to take off")),
    )),
    (N_("the computer's move"), (
        (Role.THINKING, N_("violet"), N_("the computer is choosing: its pebbles")),
        (Role.COMPUTER_FROM, N_("violet"), N_("lift this pebble")),
        (Role.COMPUTER_TO, N_("violet"), N_("and set it down here")),
        (Role.COMPUTER_TAKE, N_("red-orange"), N_("and take this pebble off")),
    )),
    (N_("a player's move far away"), (
        (Role.REMOTE_FROM, N_("lavender"), N_("lift this pebble")),
        (Role.REMOTE_TO, N_("lavender"), N_("and set it down here")),
    )),
    (N_("help (assistance 2 to 4)"), (
        (Role.QUALITY_KEEPS, N_("light blue"), N_("a good move: the game stays as it is")),
        (Role.QUALITY_WORSE, N_("dim amber"), N_("a weaker move: the game gets worse")),
        (Role.QUALITY_DROPS, N_("dim red"), N_("a mistake: a pebble is lost soon, or a mill let in")),
        (Role.QUALITY_LOSES, N_("pink"), N_("this loses the game")),
        (Role.THREAT, N_("blue"), N_("the other side closes a mill here next (or sets up "
                                     "two, or shuts every pebble in)")),
        (Role.BLUNDER, N_("red"), N_("the move just played was a mistake: put it back to try again")),
        (Role.HINT, N_("cyan"), N_("the best move, asked for: its pebble and where it goes")),
        (Role.ASKING, N_("cyan"), N_("the best move is asked for: set the lifted pebble back")),
    )),
    (N_("putting the board right"), (
        (Role.TO_EMPTY, N_("dim red"), N_("take the pebble off this point")),
        (Role.TO_FILL, N_("dim cyan"), N_("put a pebble on this point")),
        (Role.PAIR_FROM, N_("red"), N_("move the pebble from here")),
        (Role.PAIR_TO, N_("cyan"), N_("to here")),
    )),
    (N_("ending a game by clearing the board"), (
        (Role.CONFIRM_CLEAR, N_("orange"), N_("hold a pebble here to end the game")),
        (Role.CONFIRM_HOLD, N_("orange"), N_("keep holding the pebble")),
        (Role.CONFIRM_LIFT, N_("white"), N_("held long enough: lift it and the game ends")),
    )),
    (N_("game over"), (
        (Role.WINNER_WHITE, N_("warm white"), N_("white won: its pebbles")),
        (Role.WINNER_BLACK, N_("azure"), N_("black won: its pebbles")),
        (Role.DRAW, N_("white"), N_("a draw: every pebble")),
    )),
    (N_("the menu"), (
        (Role.MENU_CHOICE, N_("blue"), N_("a game to choose: hold a pebble on it, then lift it")),
        (Role.MENU_WHITE, N_("warm white"), N_("who plays white (or: white starts)")),
        (Role.MENU_BLACK, N_("azure"), N_("who plays black (or: black starts)")),
        (Role.MENU_HELP_WHITE, N_("warm white"), N_("the help white's hand gets")),
        (Role.MENU_HELP_BLACK, N_("azure"), N_("the help black's hand gets")),
        (Role.MENU_TOSS, N_("cyan"), N_("a toss decides who starts")),
        (Role.MENU_CURRENT, N_("white"), N_("the choice made last time")),
        (Role.MENU_SAME, N_("green"), N_("the same game as last time, at once")),
        (Role.MENU_BACK, N_("red-orange"), N_("back one step")),
        (Role.MENU_TAKEBACK, N_("pink"), N_("take back the last move of the last game")),
        (Role.MENU_BRIGHTNESS, N_("yellow"),
         N_("the settings: the lights' brightness, speech, the language; and their choices")),
        (Role.TOSS_WHITE, N_("warm white"), N_("the toss: white's colour")),
        (Role.TOSS_BLACK, N_("azure"), N_("the toss: black's colour")),
        (Role.AWAITED, N_("light blue"), N_("a game far away waits for the other player (one "
                                            "light walks round)")),
    )),
    (N_("reviewing on the page"), (
        (Role.REVIEW, N_("magenta"), N_("the move shown by the page's review: its points")),
    )),
    (N_("faults"), (
        (Role.SENSOR_FAULT, N_("yellow"), N_("a sensor that chatters: check its wiring and magnet")),
    )),
)
"""Every light the board shows, in words: (section, ((role, its colour, what it means)))."""


def motion_words(look: Look, tr: Translator = ENGLISH) -> str:
    """How a light moves, in words: steady, pulses, blinks slowly or fast."""
    if look.animation == Animation.BLINK:
        if blink_speed(look.period) == "fast":
            return tr.gettext("blinks fast")
        return tr.gettext("blinks slowly")
    return tr.gettext("pulses") if look.animation == Animation.PULSE else tr.gettext("steady")


def legend_table(palette: Mapping[Role, Look] = PALETTE) -> str:
    """The legend as a Markdown table (the README holds it; a test compares)."""
    lines = ["| light | colour | means |", "|---|---|---|"]
    for section, rows in LEGEND:
        lines.append(f"| **{section}** | | |")
        for role, colour, means in rows:
            lines.append(f"| `{role.value}` | {colour}, {motion_words(palette[role])} | {means} |")
    return "\n".join(lines)

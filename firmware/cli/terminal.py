"""A game against the computer in a text terminal: the board as ASCII, actions typed in
notation. Input and output are injected callables, so a game can be piped or scripted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from navakankari.engine.errors import IllegalActionError, InvalidNotationError
from navakankari.engine.game import Game, Outcome, Side
from navakankari.engine.player import ChoosesActions
from navakankari.engine.rules import Rules
from navakankari.engine.search import format_score
from navakankari.engine.variants import new_game

log = logging.getLogger(__name__)

SYMBOLS = {Side.WHITE: "O", Side.BLACK: "@", None: "."}


def draw(game: Game) -> str:
    """The board as text: points on a grid of the names' columns and rows, lines between
    neighbours, `O` white, `@` black, `.` empty; works for any board in boards.py."""
    board = game.board
    coords = board.coordinates
    cols = [c for c, _ in coords]
    rows = [r for _, r in coords]
    c0, c1, r0, r1 = min(cols), max(cols), min(rows), max(rows)
    width, height = 4 * (c1 - c0) + 1, 2 * (r1 - r0) + 1
    grid = [[" "] * width for _ in range(height)]

    def xy(p: int) -> tuple[int, int]:
        c, r = coords[p]
        return 4 * (c - c0), 2 * (r1 - r)

    for a in range(board.size):
        for b in board.bits(board.adjacency[a]):
            if b < a:
                continue
            (xa, ya), (xb, yb) = xy(a), xy(b)
            if ya == yb:
                for x in range(min(xa, xb) + 1, max(xa, xb)):
                    grid[ya][x] = "-"
            elif xa == xb:
                for y in range(min(ya, yb) + 1, max(ya, yb)):
                    grid[y][xa] = "|"
            else:
                steps = abs(yb - ya)
                for k in range(1, steps):
                    x = xa + (xb - xa) * k // steps
                    y = ya + (yb - ya) * k // steps
                    grid[y][x] = "\\" if (xb - xa) * (yb - ya) > 0 else "/"
    for p in range(board.size):
        x, y = xy(p)
        grid[y][x] = SYMBOLS[game.colour_at(p)]
    lines = []
    for y, row in enumerate(grid):
        label = str(r1 + 1 - y // 2) if y % 2 == 0 else " "
        lines.append(f"{label}  " + "".join(row).rstrip())
    lines.append("   " + "   ".join(chr(ord("a") + c) for c in range(c0, c1 + 1)))
    return "\n".join(lines)


def status(game: Game) -> str:
    parts = [f"{game.turn} to act"]
    if game.pending_removals:
        parts.append(f"take {game.pending_removals} pebble(s): x<point>")
    hands = (game.in_hand(Side.WHITE), game.in_hand(Side.BLACK))
    if any(hands):
        parts.append(f"in hand: white {hands[0]}, black {hands[1]}")
    return "; ".join(parts)


HELP = ("Type an action: a placement d6, a move a1-a4, a take xd7, or a move with its "
        "take a1-a4xd7; Nau Keti Keta: a step d3-d4 or jumps that take d5xd3xf1. "
        "Also: moves (list legal actions), board, quit.")


def play_terminal(rules: Rules, computer: ChoosesActions, human: Side,
                  read: Callable[[str], str | None], write: Callable[[str], None],
                  game: Game | None = None) -> Outcome | None:
    """Play a game (from the start, or on from `game`, which is changed): the human types
    actions for `human`, the computer plays the other side. `read(prompt)` returns a line
    or None at the end of input. Returns the outcome, or None when the human quits."""
    game = game if game is not None else new_game(rules)
    write(f"{rules.name}: you play {human} ({SYMBOLS[human]}), the computer plays "
          f"{human.other} ({SYMBOLS[human.other]}). {HELP}")
    write(draw(game))
    while (outcome := game.outcome()) is None:
        if game.turn != human:
            said = []
            while game.turn != human and game.outcome() is None:
                action = computer.choose(game)
                game.push(action)
                said.append(action.text)
            info = getattr(computer, "last", None)
            extra = (f"  [{format_score(info.score)} for the computer, depth {info.depth}]"
                     if info is not None and info.depth else "")
            write(f"computer plays {' '.join(said)}{extra}")
            write(draw(game))
            continue
        line = read(f"{status(game)} > ")
        if line is None:
            write("end of input: game abandoned")
            return None
        text = line.strip()
        if not text:
            continue
        if text in ("quit", "exit", "q"):
            write("game abandoned")
            return None
        if text in ("help", "?"):
            write(HELP)
            continue
        if text == "moves":
            write(" ".join(a.text for a in game.legal_actions()))
            continue
        if text == "board":
            write(draw(game))
            continue
        try:
            game.play(text)
        except (InvalidNotationError, IllegalActionError) as exc:
            write(f"not played: {exc}")
            continue
        if game.turn == human and game.pending_removals:
            write("a mill! take a pebble")
        write(draw(game))
    write(f"game over: {outcome}")
    write(f"record: {game.record()}")
    return outcome

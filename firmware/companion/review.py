"""Reviewing a game on the page: every position of a game record, from the start to its last
move, for the page to step through without taking anything back."""

from __future__ import annotations

from typing import Any

from navakankari.engine.game import Game, Side
from navakankari.engine.record import GameRecord, format_record, replay_record
from navakankari.engine.variants import start_game


def turns(game: Game) -> list[dict[str, Any]]:
    """The actions by turn, as a game record reads: each side's action and the removals it
    earned on one line, with the side that played them."""
    probe = game.copy()
    sides = []
    for _ in game.history:
        probe.pop()
        sides.append(str(probe.turn))
    out: list[dict[str, Any]] = []
    for action, side in zip(game.history, reversed(sides)):
        if out and out[-1]["side"] == side:
            out[-1]["actions"].append(action.text)
        else:
            out.append({"side": side, "actions": [action.text]})
    return out


def review(record: GameRecord) -> dict[str, Any]:
    """The record with every position it passes through: frame k is the board after k
    actions, with the points the k-th action touched (the page marks them). Every move is
    checked (engine.record.replay_record): a record that does not play raises its error."""
    game = replay_record(record)
    board = start_game(record.rules, record.start)
    frames = [_frame(board, None)]
    for action in game.history:
        board.push(action)
        frames.append(_frame(board, action))
    return {
        "record": format_record(record),
        "variant": record.rules.name,
        "white": record.white,
        "black": record.black,
        "date": record.date,
        "result": record.result,
        "termination": record.termination,
        "turns": turns(game),
        "frames": frames,
    }


def _frame(game: Game, action: Any) -> dict[str, Any]:
    names = game.board.names
    touched: list[str] = []
    if action is not None:
        touched = [n for n in (action.origin_name, action.target_name, *action.jumped_names) if n]
    return {"white": list(names(game.pieces(Side.WHITE))),
            "black": list(names(game.pieces(Side.BLACK))),
            "action": action.text if action is not None else None,
            "touched": touched}

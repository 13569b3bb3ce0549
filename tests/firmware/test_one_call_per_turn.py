"""The daemon's loop asks the session one thing a turn: what the turn must do."""

from __future__ import annotations

from navakankari.engine.player import RandomPlayer

from call_graph import settled_change


def test_a_settled_change_reaches_the_loop_in_one_answer(tmp_path):
    # A hand's pebble settles against the computer (played in process: no search to wait for).
    turn = settled_change(tmp_path, lambda spec: RandomPlayer(0))
    asked = [name for depth, name in turn.visits if depth == 1 and name.startswith("Session.")]
    assert asked == ["Session.turn"]
    names = turn.names()
    assert "Store.append" in names and "TurnBroker.wanted" in names  # stored, then asked on
    assert "Answers.computer_request" not in names and "Session.deadline" not in names

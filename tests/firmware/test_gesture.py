"""The hold-then-lift gesture the menu and the clearing confirmation share."""

from __future__ import annotations

from navakankari.firmware.core.gesture import HoldGesture


def everywhere(point: str) -> bool:
    return True


def test_held_long_enough_then_lifted_chooses_the_point():
    g = HoldGesture(1.0, lift=0.3)
    g.see(frozenset({"d5"}), 0.2)
    assert g.deadline(everywhere) == 1.2
    assert g.tick(1.19, everywhere) == (False, "")
    assert g.tick(1.2, everywhere) == (True, "") and g.armed == "d5"
    g.see(frozenset(), 2.0)
    assert g.deadline(everywhere) == 2.3
    assert g.tick(2.29, everywhere) == (False, "")
    assert g.tick(2.3, everywhere) == (False, "d5") and not g.armed


def test_a_point_that_does_not_count_is_never_armed():
    g = HoldGesture(1.0)
    g.see(frozenset({"a1"}), 0.0)
    assert g.deadline(lambda p: p == "d5") is None
    assert g.tick(5.0, lambda p: p == "d5") == (False, "")


def test_two_pebbles_or_a_pebble_set_down_again_choose_nothing():
    g = HoldGesture(1.0)
    g.see(frozenset({"d5", "a1"}), 0.0)
    assert g.tick(5.0, everywhere) == (False, "")
    g.see(frozenset({"d5"}), 5.0)
    assert g.tick(6.0, everywhere)[0]
    g.see(frozenset({"a1"}), 6.5)  # slid across instead of lifted: disarmed
    assert not g.armed
    g.see(frozenset(), 7.0)
    assert g.tick(9.0, everywhere) == (False, "")


def test_stillness_counts_from_the_last_edge_and_a_bounce_restarts_it():
    g = HoldGesture(3.0)
    g.see(frozenset({"d5"}), 0.2, since=0.0)  # settled at 0.2 after its edge at 0.0
    assert g.deadline(everywhere) == 3.0
    g.stir(1.0)  # nudged, back in place before it settled otherwise
    assert g.deadline(everywhere) == 4.0
    assert g.tick(4.0, everywhere)[0]
    g.stir(5.0)  # once armed, a bounce does not take it back
    assert g.armed == "d5"

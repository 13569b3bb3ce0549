from __future__ import annotations

import pytest
from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.firmware.core.lights import next_change, pulse_changes, render, roles
from navakankari.firmware.core.palette import PAIR_PERIOD, PALETTE, PULSE_LEVELS, Role, check_palette
from navakankari.engine.variants import new_game
from navakankari.firmware.core.status import Status, StatusKind
from tables import Table, random_game

NINE = preset("nine-mens-morris")
MOVING = "c5 b6 a4 e3 d5 d6 f2 d2 g7 e5 c3 a1 d1 g4 f4 d7 e4 a7"
MILL_SETUP = "a7 b6 d7 f6 g4 b2 g1 d2"


def colour(role: Role):
    return PALETTE[role].colour


def test_placing_lights_the_free_points_dimly_and_nothing_animates():
    t = Table(NINE, "d6")
    frame = render(t.game, t.status, 10.0)
    assert len(frame) == 23 and "d6" not in frame
    assert set(frame.values()) == {colour(Role.FREE_BLACK)}
    assert next_change(t.game, t.status, 10.0) is None


def test_moving_lights_the_pebbles_that_can_move():
    t = Table(NINE, MOVING)
    frame = render(t.game, t.status, 0.0)
    assert set(frame) == {"c5", "a4", "f4", "c3", "d1"}
    assert set(frame.values()) == {colour(Role.TURN_WHITE)}


def test_a_lifted_pebble_and_its_destinations():
    t = Table(NINE, MOVING)
    t.hands.lift("c3")
    t.at(0.3)
    frame = render(t.game, t.status, t.now)
    assert frame == {"c3": colour(Role.LIFTED), "c4": colour(Role.DESTINATION),
                     "d3": colour(Role.DESTINATION)}


def test_removal_shows_the_mill_and_blinks_the_takeable_pebbles():
    t = Table(NINE, MILL_SETUP)
    t.hands.place("g7")
    t.run()
    s = t.status
    assert s.kind == StatusKind.REMOVAL
    frame = render(t.game, s, s.since)
    assert {p for p, c in frame.items() if c == colour(Role.MILL)} == {"a7", "d7", "g7", "g4", "g1"}
    assert {p for p, c in frame.items() if c == colour(Role.TAKEABLE)} == {"b6", "f6", "b2", "d2"}
    half = PALETTE[Role.TAKEABLE].period / 2
    assert next_change(t.game, s, s.since) == pytest.approx(s.since + half)
    dark = render(t.game, s, s.since + half)
    assert "b6" not in dark and dark["a7"] == colour(Role.MILL)
    assert render(t.game, s, s.since + 2 * half) == frame


def computer_plays_g7_xd2() -> Table:
    """White (the computer) is given g7, which closes two mills, and xd2."""
    t = Table(NINE, MILL_SETUP, hands={Side.BLACK})
    g7 = t.game.parse_action("g7")
    probe = t.game.copy()
    probe.push(g7)
    t.tracker.set_forced([g7, probe.parse_action("xd2")], t.now)
    return t


def test_the_computers_move_from_to_and_take():
    t = computer_plays_g7_xd2()
    frame = render(t.game, t.status, t.status.since)
    mill = {p: colour(Role.MILL) for p in ("a7", "d7", "g4", "g1")}  # as a hand's mill is
    assert frame == {"g7": colour(Role.COMPUTER_TO), "d2": colour(Role.COMPUTER_TAKE), **mill}
    t.hands.lift("d2")
    t.at(0.3)
    assert render(t.game, t.status, t.status.since) == {"g7": colour(Role.COMPUTER_TO)}


def test_a_far_away_players_move_is_lit_in_its_own_colour_not_the_computers():
    from dataclasses import replace

    t = computer_plays_g7_xd2()
    remote = replace(t.status, remote=True)  # the same move, made at a board far away
    frame = render(t.game, remote, remote.since)
    mill = {p: colour(Role.MILL) for p in ("a7", "d7", "g4", "g1")}
    assert frame == {"g7": colour(Role.REMOTE_TO), "d2": colour(Role.COMPUTER_TAKE), **mill}
    assert colour(Role.REMOTE_TO) != colour(Role.COMPUTER_TO)
    moving = Status(kind=StatusKind.EXECUTING, turn="white", forced=("a1-a4",),
                    forced_from=("a1",), forced_to=("a4",), remote=True)
    assert roles(t.game, moving, 0.0) == {"a1": Role.REMOTE_FROM, "a4": Role.REMOTE_TO}
    assert roles(t.game, replace(moving, remote=False), 0.0) == {
        "a1": Role.COMPUTER_FROM, "a4": Role.COMPUTER_TO}


def test_the_computers_move_stays_shown_when_a_hand_puts_it_elsewhere():
    from navakankari.firmware.core.wording import status_text

    t = computer_plays_g7_xd2()
    t.hands.place("c5")  # a legal placement, but not the one given
    t.hands.wait(2.0)
    t.run()
    s = t.status
    assert s.kind == StatusKind.MISMATCH
    frame = render(t.game, s, s.since)
    assert frame["g7"] == colour(Role.COMPUTER_TO) and "d2" not in frame  # the take comes later
    assert frame["c5"] in (colour(Role.TO_EMPTY), PALETTE[Role.PAIR_FROM].colour)
    assert status_text(t.game, s) == ("white plays g7 xd2, not that: lift the pebble on c5; "
                                      "then put a white pebble on g7, then take the black "
                                      "pebble off d2")


def test_a_mismatch_shows_points_to_empty_and_fill_one_pair_at_a_time():
    t = Table(NINE, MOVING)
    t.hands.lift("c5").wait(0.05).lift("a4").wait(0.05).place("c4").wait(0.05).place("b4")
    t.hands.wait(2.0)
    t.run()
    s = t.status
    assert s.kind == StatusKind.MISMATCH and len(s.pairs) == 2
    first = render(t.game, s, s.since)
    (a, b), (c, d) = s.pairs
    assert first[a] == PALETTE[Role.PAIR_FROM].colour and first[b] == PALETTE[Role.PAIR_TO].colour
    assert first[c] == colour(Role.TO_EMPTY) and first[d] == colour(Role.TO_FILL)
    later = render(t.game, s, s.since + PAIR_PERIOD)
    assert later[c] == PALETTE[Role.PAIR_FROM].colour and later[a] == colour(Role.TO_EMPTY)


def test_game_over_pulses_the_winners_pebbles():
    game = random_game(NINE, seed=3, plies=400)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is not None
    t = Table(NINE, game.record())
    s = t.status
    frame = render(t.game, s, s.since)
    assert set(frame) == set(t.game.board.names(t.game.pieces(outcome.winner)))
    nxt = next_change(t.game, s, s.since + 0.01)
    assert nxt == pytest.approx(s.since + pulse_changes()[0] * PALETTE[Role.WINNER_WHITE].period)
    assert render(t.game, s, s.since + 0.01) == frame  # within one pulse step nothing changes
    assert render(t.game, s, s.since + 0.5) != frame
    # After a minute the pulse stops: the last frame is steady and nothing more is due.
    duration = PALETTE[Role.WINNER_WHITE].duration
    assert next_change(t.game, s, s.since + duration - 0.01) == pytest.approx(s.since + duration)
    assert next_change(t.game, s, s.since + duration) is None
    steady = render(t.game, s, s.since + duration)
    assert steady == render(t.game, s, s.since + duration + 100)
    winner = Role.WINNER_WHITE if outcome.winner == Side.WHITE else Role.WINNER_BLACK
    assert set(steady.values()) == {PALETTE[winner].colour}


def test_thinking_is_steady():
    t = Table(NINE, "d6 a1", hands={Side.BLACK})
    assert t.status.kind == StatusKind.THINKING
    assert set(roles(t.game, t.status, 0.0).values()) == {Role.THINKING}
    assert next_change(t.game, t.status, 0.0) is None


def test_render_does_not_change_the_game():
    t = Table(NINE, MOVING)
    before = (t.game.position(), t.game.record())
    render(t.game, t.status, 1.0)
    next_change(t.game, t.status, 1.0)
    assert (t.game.position(), t.game.record()) == before


def test_the_palette_covers_every_role():
    check_palette(PALETTE)
    broken = dict(PALETTE)
    del broken[Role.MILL]
    with pytest.raises(ValueError, match="mill"):
        check_palette(broken)


def test_nau_keti_keta_lights_only_its_nineteen_points():
    t = Table(preset("nau-keti-keta"))
    frame = render(t.game, t.status, 0.0)
    assert set(frame) == {"c3", "d3", "e3"}  # white's pebbles that can step to the apex


def test_a_pulse_sends_a_frame_only_when_its_level_steps():
    # The menu's pulse, followed from frame to frame by next_change as the daemon does:
    # each frame differs from the one before, a cycle is 2 x PULSE_LEVELS frames, and every
    # step is one level (no jump), so the wave is as smooth as its levels.
    game = new_game(NINE)
    look = PALETTE[Role.MENU_SAME]
    s = Status(StatusKind.MENU, "white", 10.0, choices=(("d5", "same", "same"),))
    now, frames, seen = s.since, [], []
    while now < s.since + 2 * look.period:
        frames.append(render(game, s, now)["d5"])
        seen.append(now)
        nxt = next_change(game, s, now)
        assert nxt is not None and nxt > now
        assert render(game, s, (now + nxt) / 2)["d5"] == frames[-1]  # nothing changes between
        now = nxt
    assert len(frames) == 4 * PULSE_LEVELS + 1  # two cycles of steps after the first frame
    assert all(a != b for a, b in zip(frames, frames[1:]))
    greens = [f[1] for f in frames]
    step = look.colour[1] * (1 - 0.7) / PULSE_LEVELS
    assert all(abs(a - b) <= step + 1 for a, b in zip(greens, greens[1:]))
    assert max(greens) == look.colour[1] and min(greens) == round(look.colour[1] * 0.7)
    # Woken a hair early or late at a step, the loop sees the step's new frame.
    assert render(game, s, seen[3] - 1e-7)["d5"] == frames[3]


def test_a_waiting_invitation_walks_one_calm_light_round_the_ring():
    from navakankari.firmware.core.lights import AWAIT_STEP, awaiting, next_awaiting_change

    ring = ("a7", "d7", "g7", "g4")
    colour = PALETTE[Role.AWAITED].colour
    seen = [awaiting(ring, 10.0, 10.0 + k * AWAIT_STEP + 0.01) for k in range(6)]
    assert seen == [{p: colour} for p in ("a7", "d7", "g7", "g4", "a7", "d7")]
    assert awaiting(ring, 10.0, 9.0) == {"a7": colour}  # before it began: the first point
    assert next_awaiting_change(10.0, 10.1) == 10.0 + AWAIT_STEP
    assert next_awaiting_change(10.0, 10.0 + AWAIT_STEP) == 10.0 + 2 * AWAIT_STEP

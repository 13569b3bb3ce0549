"""Two boards' daemons, each on its simulated board with its page, play online through a
real Mosquitto: invited and joined over HTTP as a script would, the hands moved through
`/api/hand`, one board restarted in the middle of the game."""

from __future__ import annotations

import json
import random
from contextlib import ExitStack

from sim_daemon import RunningDaemon, sim_daemon
from sim_daemon import api as shared_api
from sim_daemon import until as shared_until

from navakankari.engine.actions import ActionKind
from navakankari.firmware.core.palette import PALETTE, Role

WAIT = 15.0


def api(d: RunningDaemon, path: str, body: dict | None = None) -> dict:
    return shared_api(d, path, body, WAIT)


def until(what: str, condition):  # type: ignore[no-untyped-def]
    return shared_until(what, condition, WAIT)


def carry_out(d: RunningDaemon, text: str) -> None:
    """The hands at this board carry out one action, through the page's hand requests."""
    game = d.call(lambda: d.daemon.session.game)
    action = d.call(lambda: game.parse_action(text))
    names = game.board.points
    colour = str(game.turn)
    if action.kind == ActionKind.PLACE:
        api(d, "/api/hand", {"op": "place", "point": names[action.target], "colour": colour})
    elif action.kind == ActionKind.MOVE:
        api(d, "/api/hand", {"op": "lift", "point": names[action.origin]})
        api(d, "/api/hand", {"op": "put", "point": names[action.target]})
    else:  # a removal
        api(d, "/api/hand", {"op": "lift", "point": names[action.target]})
        api(d, "/api/hand", {"op": "drop"})


def plies(d: RunningDaemon) -> int:
    return d.call(lambda: len(d.daemon.session.game.history))


def forced(d: RunningDaemon) -> list[str]:
    return d.call(lambda: [a.text for a in d.daemon.session.tracker.forced])


def test_two_boards_play_online_and_one_restarts(broker, tmp_path):
    rng = random.Random(8)
    with ExitStack() as stack:
        boards = {"a": stack.enter_context(sim_daemon(
            tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma's board",
            settle=0.05))}
        first_life = ExitStack()
        stack.callback(first_life.close)
        boards["b"] = first_life.enter_context(sim_daemon(
            tmp_path / "b", broker=broker.url("ravi"), board_name="Ravi's board", settle=0.05))
        a, b = boards["a"], boards["b"]
        code = api(a, "/api/online/invite", {"variant": "nine-mens-morris", "side": "black",
                                             "starts": "toss"})["code"]
        api(b, "/api/online/join", {"code": code})
        until("the game on both boards", lambda: all(
            (api(d, "/api/state").get("online") or {}).get("opponent") for d in (a, b)))
        states = {name: api(d, "/api/state") for name, d in boards.items()}
        assert states["a"]["online"]["code"] == states["b"]["online"]["code"] == code
        assert states["a"]["online"]["opponent"] == "Ravi's board"
        sides = {name: states[name]["online"]["side"] for name in boards}
        assert set(sides.values()) == {"white", "black"}
        assert "knitting" not in json.dumps(states["a"])  # the broker password: never shown

        def one_ply() -> None:
            mover = next(n for n, d in boards.items() if not forced(d) and sides[n] == d.call(
                lambda d=d: str(d.daemon.session.game.turn)))
            other = boards["b" if mover == "a" else "a"]
            here = boards[mover]
            n = plies(here)
            game = here.call(lambda: here.daemon.session.game)
            text = rng.choice(here.call(lambda: [x.text for x in game.legal_actions()]))
            carry_out(here, text)
            until("the move committed", lambda: plies(here) > n)
            until("the move shown on the other board", lambda: forced(other))
            for shown in forced(other):
                m = plies(other)
                carry_out(other, shown)
                until("the other board's hands", lambda: plies(other) > m)

        for _ in range(8):
            one_ply()
        first_life.close()  # Ravi's board loses power ...
        boards["b"] = b = stack.enter_context(sim_daemon(
            tmp_path / "b", broker=broker.url("ravi"), board_name="Ravi's board", settle=0.05))
        until("the restarted board linked", lambda: (api(b, "/api/state").get("online")
                                                     or {}).get("connected"))
        # ... and comes back; its pebbles stood where they were (its simulated board is new)
        api(b, "/api/hand", {"op": "setup"})
        until("the board matching again", lambda: b.call(
            lambda: b.daemon.session.tracker.matches()))
        for _ in range(8):
            one_ply()
        records = [d.call(lambda d=d: d.daemon.session.record()) for d in boards.values()]
        assert records[0] == records[1] and len(records[0].split()) >= 16
        online = api(a, "/api/state")["online"]
        assert online["connected"] and online["sequence"] == len(records[0].split())


def test_a_second_invitation_replaces_the_first(broker, tmp_path):
    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma") as a, \
            sim_daemon(tmp_path / "b", broker=broker.url("ravi"), board_name="Ravi") as b:
        first = api(a, "/api/online/invite", {"variant": "navakankari", "side": "white",
                                              "starts": "white"})["code"]
        second = api(a, "/api/online/invite", {"variant": "lasker", "side": "white",
                                               "starts": "white"})["code"]
        online = api(a, "/api/state")["online"]
        assert first != second and online["waiting"] and online["code"] == second
        # while it waits, the board's LEDs show one calm light walking round its ring
        until("the waiting light", lambda: a.call(
            lambda: list(a.daemon.last_frame.values())) == [PALETTE[Role.AWAITED].colour])
        api(b, "/api/online/join", {"code": second})
        until("the game", lambda: (api(a, "/api/state").get("online") or {}).get("opponent"))
        assert api(a, "/api/state")["variant"] == "lasker"
        until("the game's lights again", lambda: PALETTE[Role.AWAITED].colour not in a.call(
            lambda: list(a.daemon.last_frame.values())))
        until("both links up", lambda: all((api(d, "/api/state").get("online") or {}).get(
            "connected") for d in (a, b)))


BAD_REQUESTS = [
    ("/api/online/invite", {"variant": "chess", "side": "white"}, "cannot play"),
    ("/api/online/invite", {"variant": "lasker", "side": "red"}, "side must be"),
    ("/api/online/join", {"code": "K7M-2P9"}, "21 symbols"),
]


def refusal(d: RunningDaemon, path: str, body: dict) -> str:
    import urllib.error

    try:
        api(d, path, body)
    except urllib.error.HTTPError as exc:
        return str(json.loads(exc.read().decode())["error"])
    raise AssertionError(f"{path} {body} was accepted")


def test_online_requests_say_what_is_wrong(broker, tmp_path):
    with sim_daemon(tmp_path / "a", broker=broker.url("grandma")) as a:
        for path, body, words in BAD_REQUESTS:
            assert words in refusal(a, path, body)
        # The same refusals on a Hindi page: online play's own words in Hindi, the code and
        # its counts kept.
        assert refusal(a, "/api/online/join?lang=hi", {"code": "K7M-2P9"}) == (
            "जुड़ना: खेल कोड में 21 चिह्न होते हैं (जैसे K7M-2P9-QRT-AX4-B8C-D3F-GH5); "
            "इसमें 6 हैं")
        assert refusal(a, "/api/online/join?lang=hi", {"code": "K7M-2P9-QRT-AX4-B8C-D3F-GH6"}
                       ) == "जुड़ना: खेल कोड जाँच में सही नहीं निकला: कोई चिह्न ग़लत लिखा गया"
        assert refusal(a, "/api/online/join?lang=hi", {"code": "K7M-2P9-QRT-AX4-B8C-D3F-GU5"}
                       ) == ("जुड़ना: खेल कोड का चिह्न 20, 'U', कोड में इस्तेमाल होने वाला चिह्न "
                             "नहीं है (U को छोड़कर अक्षर और अंक)")
    with sim_daemon(tmp_path / "c") as offline:
        assert "online play is not configured" in refusal(
            offline, "/api/online/join", {"code": "K7M-2P9-QRT-AX4-B8C-D3F-GH5"})


def test_a_game_chosen_on_the_boards_menu_with_an_online_player_is_offered(broker, tmp_path):
    from navakankari.engine.game import Side
    from navakankari.engine.presets import preset
    from navakankari.firmware.core.players import HAND, PlayerSpec

    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma",
                    menu=True) as a, \
            sim_daemon(tmp_path / "b", broker=broker.url("ravi"), board_name="Ravi") as b:
        assert "online" in a.call(lambda: a.daemon.session.menu.players)
        # what the menu's last choice does: white a hand here, black someone far away
        a.call(lambda: a.daemon.session.new_game(
            a.daemon.now(), rules=preset("lasker"),
            players={Side.WHITE: HAND, Side.BLACK: PlayerSpec("online")}))
        game = a.call(lambda: a.daemon.session.game_id)
        code = until("the code", lambda: (api(a, "/api/state").get("online") or {}).get(
            "code"))
        until("the waiting light", lambda: a.call(
            lambda: list(a.daemon.last_frame.values())) == [PALETTE[Role.AWAITED].colour])
        api(b, "/api/online/join", {"code": code})
        until("joined", lambda: (api(a, "/api/state").get("online") or {}).get("opponent"))
        assert a.call(lambda: a.daemon.session.game_id) == game  # the same game, adopted
        state = api(b, "/api/state")
        assert state["variant"] == "lasker" and state["online"]["side"] == "black"
        api(a, "/api/hand", {"op": "place", "point": "d6", "colour": "white"})
        until("the move on the other board", lambda: forced(b) == ["d6"])


def test_a_game_black_begins_keeps_the_colours_chosen_on_both_boards(broker, tmp_path):
    """The offer names the colour each board plays and that black moves first: both boards
    start the same game from the empty board with black to act, each keeping its colour,
    and say so; black's first move goes from the joining board's hands to the other's."""
    with sim_daemon(tmp_path / "a", broker=broker.url("grandma"), board_name="Grandma",
                    settle=0.05) as a, \
            sim_daemon(tmp_path / "b", broker=broker.url("ravi"), board_name="Ravi",
                       settle=0.05) as b:
        code = api(a, "/api/online/invite", {"variant": "nine-mens-morris", "side": "white",
                                             "starts": "black"})["code"]
        api(b, "/api/online/join", {"code": code})
        until("the game on both boards", lambda: all(
            (api(d, "/api/state").get("online") or {}).get("opponent") for d in (a, b)))
        here, there = api(a, "/api/state"), api(b, "/api/state")
        assert (here["online"]["side"], there["online"]["side"]) == ("white", "black")
        assert here["first"] == there["first"] == "black"
        assert here["players"] == {"white": "hand", "black": "online"}
        assert there["players"] == {"white": "online", "black": "hand"}
        assert a.call(lambda: str(a.daemon.session.game.turn)) == "black"
        for mover, other, action in ((b, a, "d6"), (a, b, "d2"), (b, a, "b4")):
            n = plies(mover)
            carry_out(mover, action)
            until(f"{action} committed", lambda: plies(mover) > n)
            until(f"{action} shown on the other board", lambda: forced(other) == [action])
            # lit in the far-away player's own colour, not the computer's violet
            assert until("the move lit", lambda: other.call(
                lambda: other.daemon.last_frame.get(action))) == PALETTE[Role.REMOTE_TO].colour
            carry_out(other, action)
            until(f"{action} carried out there", lambda: plies(other) > n)
        assert [d.call(lambda d=d: d.daemon.session.record()) for d in (a, b)] == ["d6 d2 b4"] * 2
        starts = [d.call(lambda d=d: d.daemon.session.start) for d in (a, b)]
        assert starts[0] == starts[1] and starts[0].split(" ")[1] == "b"  # kept with the game


def test_the_invite_command_prints_the_code_in_the_configured_language(broker, tmp_path, capsys):
    import re

    from navakankari.firmware.cli import main as cli

    with sim_daemon(tmp_path / "a", broker=broker.url("grandma")) as a:
        config = tmp_path / "daemon.toml"
        port = a.url.rsplit(":", 1)[1]
        config.write_text(f'[board]\nlanguage = "hi"\n[web]\nport = {port}\npin = "{a.pin}"\n')
        assert cli.main(["invite", "--config", str(config), "--variant", "lasker"]) == 0
        said = re.fullmatch(r"खेल कोड: ((\w{3}-){6}\w{3})  \(दूसरा खिलाड़ी इससे जुड़ता है; उसके "
                            r"जुड़ते ही बोर्ड पर खेल शुरू होता है\)\n", capsys.readouterr().out)
        assert said is not None and api(a, "/api/state")["online"]["waiting"]

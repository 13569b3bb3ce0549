"""The browser player against someone else on the club's broker: Mallory, a member login,
publishes poison on every topic the page reads (without the code) and, holding the code, signs
a move on the wrong side's topic and a move on another history. The page, served over plain http from a name that is not
this machine's (so no secure context and no crypto.subtle), keeps its connection, refuses
each, shows the fork and gets out of it with the board, and plays on with the board."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from navakankari.firmware.tools.local_broker import USERS, LocalBroker
from navakankari.firmware.online import messages
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.wire import PREFIX, lobby_topic, seal, unseal
from sim_daemon import api, carry_out, sim_daemon, until

WAIT = 20.0


class Mallory:
    """A member login on the broker that keeps every message published under the game and
    publishes whatever she likes there. She is given the game's topic names (she sees every
    name under navakankari/v2/#, but could not tell this game's from another's) and, for the
    attacks of a code holder, the code."""

    def __init__(self, broker: LocalBroker, code: GameCode) -> None:
        self.code = code
        self.seen: list[tuple[str, bytes]] = []
        self.lock = threading.Lock()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="mallory-tools",
                                  protocol=mqtt.MQTTv5)
        self.client.username_pw_set("mallory", USERS["mallory"])
        ready = threading.Event()
        self.client.on_connect = lambda *_: ready.set()
        self.client.on_message = self._heard
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        assert ready.wait(10), "Mallory could not log in"
        self.client.subscribe([(f"{PREFIX}/{code.room}/#", 1), (f"{PREFIX}/{code.lobby}/#", 1)])

    def _heard(self, _client, _userdata, message) -> None:  # type: ignore[no-untyped-def]
        with self.lock:
            self.seen.append((message.topic, bytes(message.payload)))

    def heard(self, topic: str) -> list[dict]:
        """The messages that went by on `topic`, opened with the code, as JSON objects (her
        own poison left out), oldest first."""
        out = []
        with self.lock:
            for seen_topic, payload in self.seen:
                if seen_topic != topic or not payload:
                    continue
                message = unseal(self.code, topic, payload)
                if not isinstance(message, messages.Rejection):
                    out.append(json.loads(messages.encode(message)))
        return out

    def send(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)

    def post(self, topic: str, message: messages.Message, retain: bool = False) -> None:
        """`message` sealed for `topic` with the code, as a player would publish it."""
        self.send(topic, seal(self.code, topic, message), retain)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def mallory_for(served) -> Iterator:  # type: ignore[no-untyped-def]
    made: list[Mallory] = []

    def make(code: GameCode) -> Mallory:
        made.append(Mallory(served, code))
        return made[-1]

    yield make
    for m in made:
        m.close()


BIG = b'{"kind":"snapshot","moves":' + b"[" * (1024 * 1024 - 100)


def poison(game: str) -> list[bytes]:
    """What an outsider can publish: each of these once ended a board's link. In the clear,
    they are refused before anything is opened; sealed by a code holder (`sealed_poison`),
    by the reader inside."""
    shaped = {"action": "d6", "era": 0, "game": game, "kind": "move", "n": 1, "prev": "",
              "side": "white"}
    return [
        json.dumps({**shaped, "mac": "\u00e9"}).encode(),
        b"[" * 50_000,
        json.dumps(shaped).replace('"n": 1', '"n": ' + "9" * 5000).encode(),
        b"\xff\xfe not even text",
        json.dumps({**shaped, "kind": "toString", "mac": "0" * 64}).encode(),
    ]


def sealed_poison(code: GameCode, topic: str) -> list[bytes]:
    """The poison sealed with the game's key for `topic`, and a forgery sealed with the key of
    the same game id under another secret."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    out = []
    for plain in poison(code.game):
        nonce = bytes(12)
        out.append(b"\x02" + nonce + ChaCha20Poly1305(code.seal_key).encrypt(
            nonce, plain, b"\x02" + topic.encode()))
    wrong = GameCode(code.game, "0" * 12)
    return out + [seal(wrong, topic, messages.sign(wrong.key, messages.Move(
        code.game, 1, "white", "d6", "")))]


@dataclass
class Table:
    """A board (white, Grandma's) and the browser player (black, Ravi's phone) in one game,
    with Mallory on the broker watching its topics."""

    board: Any
    page: Any
    code: GameCode
    mallory: Mallory

    def topic(self, side: str) -> str:
        return f"{PREFIX}/{self.code.room}/{side}"

    def hand(self, body: dict) -> None:
        api(self.board, "/api/hand", body)

    def online(self) -> dict:
        return api(self.board, "/api/state")["online"] or {}

    def actions(self) -> list[str]:
        return list(api(self.board, "/api/state")["actions"])

    def moves_shown(self, n: int) -> None:
        self.page.wait_for_function(f"document.querySelectorAll('#moves li').length == {n}",
                                    timeout=WAIT * 1000)

    def first_two_moves(self) -> None:
        """The board's d6 and the page's d2, each shown and carried out on the other."""
        carry_out(self.hand, "d6", "white")
        self.moves_shown(1)
        self.page.click("[data-point='d2'] .hit")
        until("d2 received", lambda: self.online()["sequence"] == 2)
        carry_out(self.hand, "d2", "black")
        until("d2 carried out", lambda: len(self.actions()) == 2)

    def ready(self) -> None:
        """Until the board's hands may play (a takeback's pebbles set back)."""
        until("the board ready", lambda: api(self.board, "/api/state")["status"]["kind"]
              not in ("restore", "mismatch"))


@pytest.fixture
def table(club_browser, club_host, log_in, tmp_path, served, mallory_for):  # type: ignore[no-untyped-def]
    with sim_daemon(tmp_path / "board", broker=served.url("grandma"),
                    board_name="Grandma's board") as board:
        code = api(board, "/api/online/invite",
                   {"variant": "nine-mens-morris", "side": "white", "starts": "white"})["code"]
        page = club_browser.new_page()
        page.goto(f"http://{club_host}:{served.ws_port}/index.html#code={code}"
                  f"&broker=ws://{club_host}:{served.ws_port}")
        # a plain http page: what the page signs with cannot be WebCrypto
        assert page.evaluate("[isSecureContext, typeof crypto.subtle]") == [False, "undefined"]
        log_in(page, "Ravi's phone")
        page.click("#join-form button")
        page.wait_for_selector("#game:not([hidden])", timeout=WAIT * 1000)
        parsed = GameCode.parse(code)
        made = Table(board, page, parsed, mallory_for(parsed))
        until("linked", lambda: made.online().get("opponent_online"))
        yield made


def test_the_browser_refuses_the_attacks_and_plays_on(table: Table) -> None:
    page, mallory, parsed = table.page, table.mallory, table.code
    game = parsed.game
    hand, online, moves_shown = table.hand, table.online, table.moves_shown
    white, black = table.topic("white"), table.topic("black")

    def state() -> dict:
        return page.evaluate("""() => { const g = navakankariPlayer.current();
          return {connected: g.client.connected, refused: g.refused.counts,
                  moves: g.log.moves.map((m) => m.action), forked: g.log.forked}; }""")

    def refused(name: str, count: int) -> None:
        page.wait_for_function(
            f"(navakankariPlayer.current().refused.counts['{name}'] || 0) >= {count}",
            timeout=WAIT * 1000)

    def refusals(name: str) -> int:
        return int(page.evaluate(
            f"navakankariPlayer.current().refused.counts['{name}'] || 0"))

    # The opponent by its name, never as a machine.
    assert "against Grandma's board" in page.text_content("#players")
    assert page.text_content("#turn") == "Grandma's board to play."
    assert "computer" not in page.text_content("body").lower()

    # 1. Poison on every topic the page reads, the retained ones kept there for a reload.
    topics = [(f"{white}/{what}", what != "move")
              for what in ("move", "snapshot", "request", "answer")]
    topics += [(f"{black}/snapshot", True), (f"{black}/request", True)]
    sent = 0
    for topic, retain in topics:
        for payload in poison(game) + sealed_poison(parsed, topic):
            mallory.send(topic, payload, retain=retain)
            sent += 1
    # A payload near the broker's 1 MiB limit, kept retained where the page meets it at
    # every reconnection: the page takes no packet that large (its maximum packet size).
    mallory.send(f"{white}/move", b"[" * 100_000)
    mallory.send(f"{white}/answer", BIG, retain=True)
    page.wait_for_function(f"navakankariPlayer.current().refused.total >= {sent}",
                           timeout=WAIT * 1000)
    got = state()
    assert got["connected"] and got["moves"] == []
    assert {"malformed", "too-deep", "not-json", "unknown-kind", "bad-seal"} <= set(
        got["refused"])
    assert "dropped" in page.text_content("#link")
    table.first_two_moves()
    carry_out(hand, "b4", "white")
    moves_shown(3)

    # 2. The board takes back its b4, then its hands make the same move again: of the next
    # era, so another message than the one withdrawn. Mallory replays the withdrawn b4 as
    # the next move, before and after a reload: refused as stale by the page (which keeps
    # the takebacks in its storage) and by the board; the remade b4 is applied by both.
    withdrawn = until("Mallory saw b4", lambda: [
        m for m in mallory.heard(f"{white}/move") if m["action"] == "b4"])[-1]
    api(table.board, "/api/online/request", {"what": "takeback"})
    page.wait_for_selector("#accept:not([hidden])", timeout=WAIT * 1000)
    page.click("#accept")
    moves_shown(2)
    until("taken back on the board", lambda: table.actions()
          == ["d6", "d2"])
    hand({"op": "lift", "point": "b4"})
    hand({"op": "drop"})
    table.ready()
    replay = messages.decode(parsed.key, game, json.dumps(withdrawn))
    mallory.post(f"{white}/move", replay)
    refused("stale", 1)
    page.reload()  # the same tab: the game, and what was taken back, come from storage
    page.wait_for_selector("#game:not([hidden])", timeout=WAIT * 1000)
    page.wait_for_function("navakankariPlayer.current().client.connected",
                           timeout=WAIT * 1000)
    mallory.post(f"{white}/move", replay)
    refused("stale", 1)
    got = state()
    assert got["connected"] and got["moves"] == ["d6", "d2"]
    assert table.actions() == ["d6", "d2"]
    carry_out(hand, "b4", "white")
    moves_shown(3)
    remade = [m for m in mallory.heard(f"{white}/move") if m["action"] == "b4"][-1]
    assert (remade["n"], remade["era"]) == (3, 1) and remade["mac"] != withdrawn["mac"]

    # 3. Holding the code, Mallory signs black's next move and sends it on white's topic.
    b4_mac = [m for m in mallory.heard(f"{white}/move") if m["action"] == "b4"][-1]["mac"]
    forged = messages.sign(parsed.key, messages.Move(game, 4, "black", "a7", b4_mac, 1))
    before = refusals("rejected")
    mallory.post(f"{white}/move", forged)
    refused("rejected", before + 1)
    assert state()["moves"] == ["d6", "d2", "b4"]
    assert page.text_content("#turn").startswith("Your turn")
    page.click("[data-point='g7'] .hit")
    until("g7 received", lambda: online()["sequence"] == 4)
    carry_out(hand, "g7", "black")
    until("g7 carried out", lambda: len(table.actions()) == 4)

    # 4. A move 5 chained to another move 4 than the one both hold: a fork, shown.
    other_4 = messages.sign(parsed.key, messages.Move(game, 4, "black", "a1", b4_mac, 1))
    fork = messages.sign(parsed.key, messages.Move(game, 5, "white", "b2", other_4.mac, 1))
    mallory.post(f"{white}/move", fork)
    page.wait_for_selector("#fork:not([hidden])", timeout=WAIT * 1000)
    assert page.text_content("#turn").startswith("The games differ: Grandma's board holds")
    assert state()["moves"] == ["d6", "d2", "b4", "g7"]  # b2 was not applied
    assert page.is_hidden("#asks")
    assert "fork" not in state()["refused"]  # a stopped game, not a dropped message
    # the board's real move 5 is not shown either; its snapshot says where the two part
    carry_out(hand, "b6", "white")
    page.wait_for_function(
        "document.getElementById('fork-takeback').textContent == 'Take back to move 4'",
        timeout=WAIT * 1000)
    assert state()["moves"] == ["d6", "d2", "b4", "g7"]
    assert page.locator("#board .point.theirs").count() == 0
    page.click("#fork-takeback")
    until("asked", lambda: (online().get("request") or {}).get("from") == "there")
    api(table.board, "/api/online/answer", {"accept": True})
    page.wait_for_selector("#fork", state="hidden", timeout=WAIT * 1000)
    until("taken back on the board", lambda: table.actions()
          == ["d6", "d2", "b4", "g7"])
    hand({"op": "lift", "point": "b6"})
    hand({"op": "drop"})
    table.ready()
    carry_out(hand, "d7", "white")
    moves_shown(5)
    got = state()
    assert got["connected"] and not got["forked"]
    assert got["moves"] == ["d6", "d2", "b4", "g7", "d7"]
    assert page.locator("#board .point.theirs").count() == 1  # d7, lit again

    # 5. Holding the code, Mallory resigns in the page's name: refused there and shown.
    resign = messages.sign(parsed.key, messages.Request(game, "black", "resign", 5, 5,
                                                        "00000000000000aa", 2))
    mallory.post(f"{black}/request", resign, retain=True)
    refused("disowned", 1)
    assert page.text_content("#request-text").startswith(
        "A resignation you never made was published in your name by someone holding the "
        "game's code; Grandma's board may have acted on it.")
    assert page.text_content("#turn") == "Your turn: place a pebble (7 in hand)."

    # 6. A fault of the page's own while handling a valid message (one planted here) is
    # counted and the page goes on: connected, and it plays.
    page.evaluate("""() => { const g = navakankariPlayer.current();
      g.republish = () => { throw new Error('planted'); }; }""")
    mallory.post(f"{white}/resync", messages.sign(parsed.key, messages.Resync(game, "white", 0)))
    refused("fault", 1)
    page.click("[data-point='a7'] .hit")
    moves_shown(6)
    assert state()["connected"]


def test_a_deleted_snapshot_only_delays_a_move_and_a_quiet_page_asks(table: Table) -> None:
    """The page misses the board's move while it is away (a clean disconnection: its presence
    still says online, so the board has no reason to send it again) and Mallory deletes the
    board's retained snapshot: the page asks on reconnecting (a resync) and gets the move.
    Waiting for the board with nothing heard for 10 s it asks again (its clock set ahead,
    not waited for); and a flood of resyncs replayed at it costs one republishing."""
    page, mallory, parsed = table.page, table.mallory, table.code
    hand, online, moves_shown = table.hand, table.online, table.moves_shown
    white, black = table.topic("white"), table.topic("black")

    def resyncs() -> list[int]:
        return [m["after"] for m in mallory.heard(f"{black}/resync") if not isinstance(
            messages.read(parsed.key, parsed.game, messages.canonical(m)), messages.Rejection)]

    table.first_two_moves()

    # The page's clock stands still while it is away, so only its asking on reconnecting
    # can bring the move (not its own quiet watch); the board's asking after 10 s could,
    # but comes later than the page's, as the order of the resyncs below shows.
    page.evaluate("""() => { const g = navakankariPlayer.current();
      g.clock = () => 0; g.heardAt = 0; g.client.end(); }""")
    page.wait_for_function("!navakankariPlayer.current().client.connected")
    carry_out(hand, "b4", "white")
    until("b4 on the board", lambda: online()["sequence"] == 3)
    until("the board's snapshot with b4", lambda: any(
        len(m.get("moves", ())) == 3 for m in mallory.heard(f"{white}/snapshot")))
    mallory.send(f"{white}/snapshot", b"", retain=True)  # deleted
    page.evaluate("navakankariPlayer.current().client.reconnect()")
    moves_shown(3)
    until("the page asked after the two moves it held", lambda: 2 in resyncs())
    # and it asked first, not answering the board's own asking 10 s on (which would
    # have rescued it too, later)
    with mallory.lock:
        opened = [(t, unseal(parsed, t, p)) for t, p in mallory.seen if t.endswith("/resync")]
    order = [(t.rsplit("/", 2)[-2], m.after) for t, m in opened
             if isinstance(m, messages.Resync)]
    assert order.index(("black", 2)) < (order.index(("white", 3)) if ("white", 3) in order
                                        else len(order))

    page.evaluate("""() => { const g = navakankariPlayer.current();
      g.clock = () => Date.now(); g.heardAt = g.clock(); }""")
    page.click("[data-point='f4'] .hit")
    until("f4 received", lambda: online()["sequence"] == 4)
    carry_out(hand, "f4", "black")
    until("f4 carried out", lambda: len(table.actions()) == 4)
    asked = page.evaluate("""() => { const g = navakankariPlayer.current();
      const now = g.clock;
      const early = g.checkQuiet();  // the board was heard just now: no need to ask
      g.clock = () => now() + 11000;
      const quiet = g.checkQuiet(), again = g.checkQuiet();
      return [early, quiet, again]; }""")
    assert asked == [False, True, False]
    until("the quiet page's resync", lambda: resyncs().count(4) >= 1)

    # Mallory replays the board's asking thirty times: one republishing goes out at once,
    # the rest wait for the next (2 s later), which covers all of them.
    page.evaluate("""() => { const g = navakankariPlayer.current();
      g.clock = () => Date.now();
      const publish = g.publishSnapshot.bind(g);
      g.republished = 0;
      g.publishSnapshot = () => { g.republished += 1; return publish(); }; }""")
    ask = seal(parsed, f"{white}/resync", messages.sign(parsed.key, messages.Resync(
        parsed.game, "white", 0)))
    for _ in range(30):
        mallory.send(f"{white}/resync", ask)
    malformed = int(page.evaluate("navakankariPlayer.current().refused.counts['malformed'] || 0"))
    mallory.send(f"{white}/resync", b"{}")  # after the thirty: when it is refused, all are in
    page.wait_for_function(
        f"navakankariPlayer.current().refused.counts['malformed'] > {malformed}",
        timeout=WAIT * 1000)
    assert page.evaluate("navakankariPlayer.current().republished") in (1, 2)


def test_a_cleared_or_replaced_offer_is_published_again(club_browser, club_host, log_in,
                                                       tmp_path, served, mallory_for):
    """The page invites; Mallory clears its retained offer, then puts garbage in its place:
    the page publishes its offer again each time, and a board joins with the code."""
    with sim_daemon(tmp_path / "board", broker=served.url("grandma"),
                    board_name="Grandma's board") as board:
        page = club_browser.new_page()
        page.goto(f"http://{club_host}:{served.ws_port}/index.html")
        log_in(page, "Asha's phone")
        page.click("#invite button")
        page.wait_for_selector("#waiting:not([hidden])", timeout=WAIT * 1000)
        code = page.text_content("#waiting-code")
        mallory = mallory_for(GameCode.parse(code))
        topic = lobby_topic(GameCode.parse(code), "invite")
        until("Mallory reads the offer", lambda: mallory.heard(topic))
        mallory.send(topic, b"", retain=True)
        mallory.send(topic, b'{"kind":"invite"}', retain=True)
        until("the offer published again twice", lambda: len(mallory.heard(topic)) >= 3)
        api(board, "/api/online/join", {"code": code})
        page.wait_for_selector("#game:not([hidden])", timeout=WAIT * 1000)
        assert api(board, "/api/state")["online"]["opponent"] == "Asha's phone"
        page.close()


def test_a_fork_can_be_ended_by_resigning(table: Table) -> None:
    """A move on another history forks the page's game; its other way out, resigning, ends
    the game on the board too."""
    table.first_two_moves()
    d6_mac = until("Mallory saw d6", lambda: [
        m["mac"] for m in table.mallory.heard(f"{table.topic('white')}/move") if m["n"] == 1])[0]
    other_2 = messages.sign(table.code.key, messages.Move(table.code.game, 2, "black", "f4",
                                                         d6_mac))
    fork = messages.sign(table.code.key, messages.Move(table.code.game, 3, "white", "b4",
                                                      other_2.mac))
    table.mallory.post(f"{table.topic('white')}/move", fork)
    table.page.wait_for_selector("#fork:not([hidden])", timeout=WAIT * 1000)
    assert table.page.text_content("#fork-end") == "Resign"
    table.page.click("#fork-end")
    until("the board hears", lambda: "Ravi's phone resigned: white wins"
          in (table.online().get("ended") or ""))
    assert table.page.text_content("#turn") == "You resigned: white wins."
    assert table.page.is_hidden("#fork")

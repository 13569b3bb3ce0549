"""The browser player's one reading path and its move log, against hostile input: every
payload is bounded before it is parsed and comes back as a message or a named rejection, never
an exception; the log takes a move taken back and made again as the board does, refuses a move
in the player's own name from the other's snapshot, and reports a move on another history as a
fork."""

from __future__ import annotations

import json

import pytest

from navakankari.engine.variants import new_game
from navakankari.firmware.online import messages
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.log import MoveLog
from navakankari.firmware.online.player_page import FOLDER

CODE = GameCode.parse("K7M-2P9-QRT-AX4-B8C-D3F-GH4")


@pytest.fixture(scope="module")
def page(protocol_page):  # type: ignore[no-untyped-def]
    return protocol_page


READ = """([text, payload]) => {
  const P = NavakankariProtocol, code = P.parseCode(text);
  const bytes = typeof payload === 'string' ? P.utf8(payload) : new Uint8Array(payload);
  try {
    const got = P.read(code.key, code.game, bytes);
    return got instanceof P.Rejection ? {rejected: got.name, why: got.why} : {kind: got.kind};
  } catch (e) { return {threw: String(e)}; }
}"""


def _move(n: int = 1, **change: object) -> dict:
    move = messages.sign(CODE.key, messages.Move(CODE.game, n, "white", "d6", ""))
    body = json.loads(messages.encode(move))
    body.update(change)
    return body


def _text(body: dict) -> str:
    return json.dumps(body, separators=(",", ":"))


def _invite(**change: object) -> dict:
    """An invitation, signed after `change` (a field set to a wrong value stays signed)."""
    body = {"kind": "invite", "game": CODE.game, "variant": "lasker", "colour": "white",
            "starts": "black", "board": "Grandma", "commit": ""}
    body.update(change)
    body = {k: v for k, v in body.items() if v is not _GONE}
    return {**body, "mac": messages.mac_of(CODE.key, body)}


_GONE = object()


def _poison() -> dict[str, str | list[int]]:
    return {
        "invite colour of neither": _text(_invite(colour="green")),
        "invite colour a toss": _text(_invite(colour="toss")),
        "invite colour a number": _text(_invite(colour=1)),
        "invite colour too long": _text(_invite(colour="whiteblack")),
        "invite colour altered": _text({**_invite(), "colour": "black"}),
        "invite in protocol 2's older wording": _text(_invite(colour=_GONE, side="white")),
        "invite in the older wording, unsigned": _text({**_invite(colour=_GONE, side="white"),
                                                       "mac": "0" * 64}),
        "non-ascii mac": _text(_move(mac="\u00e9")),
        "short mac": _text(_move(mac="ab")),
        "upper-case mac": _text(_move(mac=_move()["mac"].upper())),
        "100,000 nested [": "[" * 100_000,
        "100,000 nested { in a field": '{"kind":"move","n":' + '{"a":' * 100_000,
        "n of 5,000 digits": _text(_move()).replace('"n":1,', '"n":' + "9" * 5000 + ","),
        "n a float": _text(_move()).replace('"n":1,', '"n":1.5,'),
        "1 MB and one byte": _text(_move(action="d" * (1024 * 1024)))[: 1024 * 1024 + 1],
        "not UTF-8": [0x7B, 0xFF, 0xFE, 0x7D],
        "not JSON": "{'kind': 'move'}",
        "a list": "[1, 2]",
        "kind toString": _text({**_move(), "kind": "toString"}),
        "kind __proto__": '{"kind":"__proto__","mac":"' + "0" * 64 + '"}',
        "an extra __proto__ field": _text(_move())[:-1] + ',"__proto__":{"x":1}}',
        "a missing mac": _text({k: v for k, v in _move().items() if k != "mac"}),
        "prev not hex": _text(_move(prev="\u00e9" * 64)),
        "side of neither": _text(_move(side="grey")),
        "n of 0": _text({**_move(), "n": 0}),
        "another game": _text(_move(game="ZZZZZZZZ")),
        "a forged mac": _text(_move(mac="0" * 64)),
        "altered": _text(_move(action="d5")),
        "a snapshot holding a request": _text({
            "kind": "snapshot", "game": CODE.game, "side": "white", "mac": "0" * 64,
            "moves": [json.loads(messages.encode(messages.sign(CODE.key, messages.Request(
                CODE.game, "white", "resign", 0, 0, "0123456789abcdef"))))]}),
    }


@pytest.mark.parametrize("name", list(_poison()))
def test_poison_comes_back_as_the_rejection_a_board_names(page, name: str) -> None:
    """Each comes back from the page's reader as a rejection (never an exception), under the
    reason the boards' reader gives it."""
    payload = _poison()[name]
    got = page.evaluate(READ, [str(CODE), payload])
    board = messages.read(CODE.key, CODE.game, bytes(payload) if isinstance(payload, list)
                          else payload)
    assert isinstance(board, messages.Rejection), name
    assert got == {"rejected": board.reason, "why": got.get("why")}, (name, board)
    assert got["rejected"] in page.evaluate("NavakankariProtocol.REJECTIONS")


def test_mangled_messages_are_refused_by_the_page_when_a_board_refuses_them(page) -> None:
    """Real messages with bytes changed, dropped or repeated at random: the page and a board
    take or refuse each one alike, and the page never throws."""
    import random

    board, _ = _board_moves(["d6", "d2", "b4"])
    request = messages.sign(CODE.key, messages.Request(CODE.game, "white", "takeback", 3, 2,
                                                       "0123456789abcdef"))
    originals = [messages.encode(board.snapshot("white")), messages.encode(board.moves[2]),
                 messages.encode(request)]
    rnd = random.Random(42)
    payloads = []
    for _ in range(400):
        data = bytearray(rnd.choice(originals))
        for _ in range(rnd.randint(1, 3)):
            at = rnd.randrange(len(data))
            choice = rnd.random()
            if choice < 0.4:
                data[at] = rnd.choice(b'"{}[],:0123456789abcdefxe.-\\ \xc3\xa9')
            elif choice < 0.7:
                del data[at]
            else:
                data[at:at] = data[at:at + rnd.randint(1, 8)]
        payloads.append(bytes(data))
    got = page.evaluate("""([text, payloads]) => {
      const P = NavakankariProtocol, code = P.parseCode(text);
      return payloads.map((p) => { try {
        return P.read(code.key, code.game, new Uint8Array(p)) instanceof P.Rejection ? 0 : 1;
      } catch (e) { return 'threw ' + e; } }); }""", [str(CODE), [list(p) for p in payloads]])
    want = [0 if isinstance(messages.read(CODE.key, CODE.game, p), messages.Rejection) else 1
            for p in payloads]
    assert got == want
    assert 0 < sum(want) < len(want)  # some still read (a changed id, say), most do not


def test_every_real_message_still_reads(page) -> None:
    """The bounds refuse nothing a player writes: PROTOCOL.md's examples and a snapshot of a
    long game (400 moves) read as the messages they are."""
    import re

    text = (FOLDER.parent / "PROTOCOL.md").read_text()
    for example in re.findall(r"```json\n(.*?)\n```", text, re.S):
        got = page.evaluate(READ, [str(CODE), example])
        assert got == {"kind": json.loads(example)["kind"]}
    log = MoveLog(CODE, new_game("nine-mens-morris"))
    import random

    rnd = random.Random(3)
    while log.game.outcome() is None and len(log.moves) < 400:
        log.record(rnd.choice(sorted(a.text for a in log.game.legal_actions())))
    snapshot = messages.encode(log.snapshot("white")).decode()
    assert page.evaluate(READ, [str(CODE), snapshot]) == {"kind": "snapshot"}


def test_refusals_are_counted_and_logged_once_a_minute_per_name(page) -> None:
    got = page.evaluate("""() => {
      let now = 0;
      const lines = [];
      const r = new NavakankariProtocol.Refusals(() => now, (t) => lines.push(t));
      for (let i = 0; i < 1000; i++) { now += 10; r.add('too-deep', 'x'); }
      r.add('signature', 'y');
      now += 60000;
      r.add('too-deep', 'z');
      return {total: r.total, counts: r.counts, lines};
    }""")
    assert got["total"] == 1002
    assert got["counts"] == {"too-deep": 1001, "signature": 1}
    assert got["lines"] == [  # as a board's log says it (rejections.py)
        "online: dropped a message (too-deep): x",
        "online: dropped a message (signature): y",
        "online: dropped 1000 messages (too-deep) in the last 70 s, the latest: z"]


LOG = """([text, payloads, script]) => {
  const P = NavakankariProtocol, code = P.parseCode(text);
  const game = () => new NavakankariRules.MorrisGame(NAVAKANKARI_VARIANTS['nine-mens-morris']);
  const msg = (p) => P.decode(code.key, code.game, p);
  return (new Function('P', 'code', 'game', 'msg', 'payloads', script))(P, code, game, msg, payloads);
}"""


def _board_moves(actions: list[str]) -> tuple[MoveLog, list[str]]:
    log = MoveLog(CODE, new_game("nine-mens-morris"))
    for action in actions:
        log.record(action)
    return log, [messages.encode(m).decode() for m in log.moves]


def test_a_move_taken_back_is_refused_whatever_its_number_and_made_again_is_applied(page
                                                                                  ) -> None:
    """Moves 3 and 4 are taken back. Withdrawn move 3 replayed as the next number is stale,
    on the page as on the board, also after a rebuild from storage (which keeps the
    takebacks); move 3 made again is another message (of the next era), applied by both."""
    board, sent = _board_moves(["d6", "d2", "b4", "f4"])
    board.truncate(2)
    remade = board.record("b4")
    got = page.evaluate(LOG, [str(CODE), [*sent, messages.encode(remade).decode()], """
      const log = new P.MoveLog(code, game());
      payloads.slice(0, 4).forEach((p) => log.receive(msg(p)));
      log.truncate(2);
      const kept = log.takebacks.slice();
      const again = P.MoveLog.rebuild(code, game(), ['d6', 'd2'], kept);
      return {kept, replayed: log.receive(msg(payloads[2])),
              late: again.receive(msg(payloads[3])),
              afterReload: again.receive(msg(payloads[2])),
              remade: log.receive(msg(payloads[4])), held: log.moves.length,
              remadeAfterReload: again.receive(msg(payloads[4])), heldAfter: again.moves.length};
    """])
    assert got["kept"] == [2]
    assert got["replayed"]["verdict"] == got["afterReload"]["verdict"] == "stale"
    assert got["late"]["verdict"] == "stale"  # withdrawn move 4, whatever its number
    assert got["remade"]["verdict"] == got["remadeAfterReload"]["verdict"] == "applied"
    assert (got["held"], got["heldAfter"]) == (3, 3)
    other = MoveLog(CODE, new_game("nine-mens-morris"))
    for payload in sent:
        other.receive(messages.decode(CODE.key, CODE.game, payload))
    other.truncate(2)
    withdrawn = messages.read(CODE.key, CODE.game, sent[2].encode())
    assert other.receive(withdrawn, "white").verdict.value == "stale"  # the board alike
    assert other.receive(remade, "white").verdict.value == "applied"


def test_a_move_on_another_history_is_a_fork_with_its_common_part(page) -> None:
    """Move 3 chained to another move 2 than this log's: a fork, not applied; the other's
    snapshot tells where the two part (after move 1)."""
    _, mine = _board_moves(["d6", "d2"])
    other, theirs = _board_moves(["d6", "f4", "b4"])
    snapshot = messages.encode(other.snapshot("white")).decode()
    got = page.evaluate(LOG, [str(CODE), [*mine, theirs[2], snapshot], """
      const log = new P.MoveLog(code, game());
      log.receive(msg(payloads[0])); log.receive(msg(payloads[1]));
      const fork = log.receive(msg(payloads[2]));
      const before = {...log.fork};
      log.forkSeen(msg(payloads[3]).moves);
      const after = {...log.fork};
      const held = log.moves.length;
      log.truncate(after.common);
      return {fork, before, after, held, forkedAfterTakeback: log.forked};
    """])
    assert got["fork"]["verdict"] == "fork"
    assert got["held"] == 2  # move 3 was not applied
    assert (got["before"]["n"], got["before"]["common"]) == (3, 1)  # as log.py counts it
    assert (got["after"]["n"], got["after"]["common"]) == (3, 1)  # the other's snapshot agrees
    assert got["forkedAfterTakeback"] is False


def test_a_snapshot_cannot_put_a_move_in_this_players_name(page) -> None:
    """The other's snapshot holding a white move that white (this player) never made stops
    there, unapplied; the same snapshot fills the log of the black player."""
    board, _ = _board_moves(["d6"])
    snapshot = messages.encode(board.snapshot("black")).decode()
    got = page.evaluate(LOG, [str(CODE), [snapshot], """
      const white = new P.MoveLog(code, game()), black = new P.MoveLog(code, game());
      return {white: white.catchUp(msg(payloads[0]), 'white').map((r) => r.verdict),
              black: black.catchUp(msg(payloads[0]), 'black').map((r) => r.verdict),
              held: [white.moves.length, black.moves.length]};
    """])
    assert got == {"white": ["rejected"], "black": ["applied"], "held": [0, 1]}

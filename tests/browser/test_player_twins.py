"""The browser player's rules and protocol against the engine's and the boards': the same
random games give the same legal actions and endings in both, and what one side signs the
other reads."""

from __future__ import annotations

import hashlib
import hmac
import json
import random

import pytest

from navakankari.engine.presets import PRESETS
from navakankari.engine.variants import new_game
from navakankari.firmware.online import messages
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.log import MoveLog
from navakankari.firmware.online.player_page import FOLDER, variants_script
from navakankari.firmware.online.toss import commitment

MORRIS = [name for name, rules in PRESETS.items() if rules.game == "morris"]
GAMES = 10


@pytest.fixture(scope="module")
def page(protocol_page):  # type: ignore[no-untyped-def]
    return protocol_page


def test_the_shipped_variants_are_the_engines() -> None:
    assert (FOLDER / "variants.js").read_text() == variants_script(), \
        "run: navakankari online-page firmware/online/player"


def _random_game(variant: str, seed: int) -> tuple[list[str], list[list[str]], dict | None]:
    rnd = random.Random(seed)
    game = new_game(variant)
    actions: list[str] = []
    legal: list[list[str]] = []
    while True:
        options = sorted(a.text for a in game.legal_actions())
        legal.append(options)
        if not options or len(actions) >= 400:
            break
        action = rnd.choice(options)
        game.play(action)
        actions.append(action)
    outcome = game.outcome()
    ending = None if outcome is None else {
        "winner": None if outcome.winner is None else str(outcome.winner),
        "reason": outcome.reason.value}
    return actions, legal, ending


REPLAY = """([variant, actions]) => {
  const game = new NavakankariRules.MorrisGame(NAVAKANKARI_VARIANTS[variant]);
  const legal = [game.legal().sort()];
  for (const a of actions) { game.play(a); legal.push(game.legal().sort()); }
  return {legal, outcome: game.outcome()};
}"""


@pytest.mark.parametrize("variant", MORRIS)
def test_random_games_have_the_same_legal_actions_and_endings(page, variant: str) -> None:
    reasons = set()
    for seed in range(GAMES):
        actions, legal, ending = _random_game(variant, seed)
        got = page.evaluate(REPLAY, [variant, actions])
        for ply, (want, have) in enumerate(zip(legal, got["legal"])):
            assert have == want, f"{variant} seed {seed} ply {ply}"
        assert got["outcome"] == ending, f"{variant} seed {seed}"
        reasons.add(ending["reason"] if ending else "unfinished")
    assert reasons - {"unfinished"}, f"{variant}: no game ended"


def test_the_page_refuses_an_illegal_action_and_a_jump_game(page) -> None:
    error = page.evaluate("""() => {
      const g = new NavakankariRules.MorrisGame(NAVAKANKARI_VARIANTS['nine-mens-morris']);
      try { g.play('a1-a4'); return 'played'; } catch (e) { return e.message; } }""")
    assert error == "a1-a4 is not a legal action for white now"
    error = page.evaluate("""() => {
      try { new NavakankariRules.MorrisGame({name: 'nau-keti-keta', rules: {game: 'jump'}});
      } catch (e) { return e.message; } }""")
    assert "is not played on this page" in error


def test_hashes_and_canonical_json_are_pythons(page) -> None:
    rnd = random.Random(7)
    for size in (0, 3, 55, 56, 63, 64, 65, 1000):
        data = bytes(rnd.randrange(256) for _ in range(size))
        key = bytes(rnd.randrange(256) for _ in range(rnd.choice((16, 32, 64, 100))))
        got = page.evaluate("""([data, key]) => {
          const P = NavakankariProtocol;
          const d = new Uint8Array(data), k = new Uint8Array(key);
          return [P.hex(P.sha256(d)), P.hex(P.hmacSha256(k, d))]; }""", [list(data), list(key)])
        assert got == [hashlib.sha256(data).hexdigest(),
                       hmac.new(key, data, hashlib.sha256).hexdigest()], size
    body = {"board": "Dādī's board \u2014 \U0001F600 \x7f\n\"", "n": 3, "z": [1, {"b": 2, "a": ""}]}
    assert page.evaluate("b => NavakankariProtocol.canonical(b)", body) \
        == messages.canonical(body).decode()


def test_hashes_meet_their_published_vectors_and_need_no_webcrypto(page) -> None:
    """FIPS 180-2's "abc", RFC 4231's second HMAC case and RFC 7914's scrypt vector, from the
    noble bundle alone: the page keeps no hash of its own and asks nothing of crypto.subtle."""
    got = page.evaluate("""() => {
      const P = NavakankariProtocol, N = NavakankariNoble, u = P.utf8;
      const saved = Object.getOwnPropertyDescriptor(Crypto.prototype, 'subtle');
      if (saved) Object.defineProperty(Crypto.prototype, 'subtle', {
        get() { throw new Error('subtle'); }, configurable: true});
      try {
        return [P.hex(P.sha256(u('abc'))),
                P.hex(P.hmacSha256(u('Jefe'), u('what do ya want for nothing?'))),
                P.hex(N.scrypt(u('password'), u('NaCl'), {N: 1024, r: 8, p: 16, dkLen: 64})),
                P.parseCode('K7M-2P9-QRT-AX4-B8C-D3F-GH4').text];
      } finally { if (saved) Object.defineProperty(Crypto.prototype, 'subtle', saved); }
    }""")
    assert got[0] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert got[1] == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    assert got[2] == hashlib.scrypt(b"password", salt=b"NaCl", n=1024, r=8, p=16,
                                    dklen=64).hex()
    assert got[2].startswith("fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162")
    assert got[3] == "K7M-2P9-QRT-AX4-B8C-D3F-GH4"
    assert "0x428a2f98" not in (FOLDER / "protocol.js").read_text()  # no SHA-256 of its own


def test_the_ciphers_meet_rfc_8439_and_refuse_a_changed_byte(page) -> None:
    """ChaCha20-Poly1305 from the noble bundle gives RFC 8439's AEAD example (2.8.2) byte for
    byte; XChaCha20-Poly1305 opens what it sealed and refuses it with one byte changed."""
    got = page.evaluate("""() => {
      const N = NavakankariNoble, P = NavakankariProtocol, u = P.utf8;
      const key = Uint8Array.from({length: 32}, (_, i) => 0x80 + i);
      const nonce = Uint8Array.from([7, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47]);
      const aad = Uint8Array.from([0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5,
                                   0xc6, 0xc7]);
      const text = "Ladies and Gentlemen of the class of '99: If I could offer you only one " +
        "tip for the future, sunscreen would be it.";
      const sealed = N.chacha20poly1305(key, nonce, aad).encrypt(u(text));
      const xnonce = Uint8Array.from({length: 24}, (_, i) => i);
      const box = N.xchacha20poly1305(key, xnonce).encrypt(u(text));
      const opened = new TextDecoder().decode(N.xchacha20poly1305(key, xnonce).decrypt(box));
      box[5] ^= 1;
      let refused = '';
      try { N.xchacha20poly1305(key, xnonce).decrypt(box); } catch (e) { refused = e.message; }
      return [P.hex(sealed), opened === text, refused];
    }""")
    assert got[0] == (
        "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb"
        "69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad6"
        "75945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116"
        "1ae10b594f09e26a7e902ecbd0600691")
    assert got[1] is True and got[2]


def test_codes_messages_and_tosses_cross_both_ways(page) -> None:
    code = GameCode.new()
    read = page.evaluate("""t => { const c = NavakankariProtocol.parseCode(t.toLowerCase());
                                   return [c.game, c.secret, NavakankariProtocol.hex(c.key), c.text]; }""",
                         str(code))
    assert read == [code.game, code.secret, code.key.hex(), str(code)]
    wrong = str(code)[:-1] + ("0" if str(code)[-1] != "0" else "1")
    error = page.evaluate("""t => { try { NavakankariProtocol.parseCode(t); return ''; }
                                    catch (e) { return e.message; } }""", wrong)
    assert error == "the game code does not check: a symbol was mistyped"

    # A board's log, read and checked by the page; the page's own moves read by a board.
    log = MoveLog(code, new_game("nine-mens-morris"))
    for action in ("d6", "d2", "b4", "f4"):
        log.record(action)
    snapshot = messages.encode(log.snapshot("white")).decode()
    result = page.evaluate("""([text, variant, payload]) => {
      const P = NavakankariProtocol;
      const code = P.parseCode(text);
      const snap = P.decode(code.key, code.game, payload);
      const log = new P.MoveLog(code, new NavakankariRules.MorrisGame(NAVAKANKARI_VARIANTS[variant]));
      const verdicts = log.catchUp(snap).map(r => r.verdict);
      const mine = log.record('d7');
      const again = log.receive(snap.moves[0]).verdict;
      let forged = '';
      try { P.decode(code.key, code.game, payload.replace('"d6"', '"d5"')); }
      catch (e) { forged = e.message; }
      return {verdicts, mine: P.encode(mine), again, forged,
              commit: P.commitment(code.game, 'ab12', 1),
              starter: P.starter(code.game, P.commitment(code.game, 'ab12', 1), 'ab12', 1, 1)};
    }""", [str(code), "nine-mens-morris", snapshot])
    assert result["verdicts"] == ["applied"] * 4
    assert result["again"] == "duplicate"
    assert "signature does not check" in result["forged"]
    move = messages.decode(code.key, code.game, result["mine"])
    assert isinstance(move, messages.Move) and (move.n, move.side, move.action) == (5, "white", "d7")
    assert log.receive(move).verdict.value == "applied"
    assert result["commit"] == commitment(code.game, "ab12", 1)
    assert result["starter"] == "white"
    assert json.loads(result["mine"])["prev"] == log.moves[3].mac


def test_requests_next_codes_and_takebacks_cross_both_ways(page) -> None:
    from navakankari.firmware.online.messages import Answer, Request, sign

    code = GameCode.new()
    request = sign(code.key, Request(code.game, "white", "takeback", 3, 2, "0123456789abcdef"))
    answer = sign(code.key, Answer(code.game, "black", "0123456789abcdef", 1))
    log = MoveLog(code, new_game("nine-mens-morris"))
    for action in ("d6", "d2", "b4"):
        log.record(action)
    stale = messages.encode(log.snapshot("white")).decode()
    got = page.evaluate("""([text, request, answer, stale]) => {
      const P = NavakankariProtocol;
      const code = P.parseCode(text);
      const log = new P.MoveLog(code, new NavakankariRules.MorrisGame(NAVAKANKARI_VARIANTS['nine-mens-morris']));
      log.catchUp(P.decode(code.key, code.game, stale));
      log.truncate(2);
      const late = log.catchUp(P.decode(code.key, code.game, stale)).map(r => r.verdict);
      const again = log.record('f4');
      return {next: P.nextCode(code).text, request: P.decode(code.key, code.game, request).keep,
              answer: P.decode(code.key, code.game, answer).accept, late,
              history: log.game.history, again: P.encode(again)};
    }""", [str(code), messages.encode(request).decode(), messages.encode(answer).decode(),
           stale])
    assert got["next"] == str(code.next())
    assert (got["request"], got["answer"]) == (2, 1)
    assert got["late"] == ["duplicate", "duplicate", "stale"]  # taken-back b4: never again
    assert got["history"] == ["d6", "d2", "f4"]
    log.truncate(2)
    move = messages.decode(code.key, code.game, got["again"])
    assert log.receive(move).verdict.value == "applied" and (move.n, move.era) == (3, 1)


def test_keys_topics_and_sealed_payloads_cross_both_ways(page) -> None:
    """The page stretches a code into the same keys and topic names as a board (scrypt, then
    HKDF), opens what a board seals and seals what a board opens; a changed byte, another
    topic or another code opens on neither; a message of protocol 1 is told by both."""
    import dataclasses

    from navakankari.firmware.online.messages import Move, canonical, mac_of, sign
    from navakankari.firmware.online.wire import (from_older, game_topic, lobby_topic,
                                                  older_key, seal, unseal)

    code = GameCode.parse("K7M-2P9-QRT-AX4-B8C-D3F-GH4")
    move = sign(code.key, Move(code.game, 1, "white", "d6", ""))
    where = game_topic(code, "white", "move")
    sealed = seal(code, where, move)
    body = {k: v for k, v in dataclasses.asdict(move).items() if k not in ("mac", "era")}
    body["kind"] = "move"
    older = canonical({**body, "mac": mac_of(older_key(code), body)})
    got = page.evaluate("""([text, where, sealed, older]) => {
      const P = NavakankariProtocol, code = P.parseCode(text), u8 = (a) => new Uint8Array(a);
      const opened = P.unseal(code, where, u8(sealed));
      const changed = u8(sealed); changed[20] ^= 1;
      const other = P.parseCode(P.nextCode(code).text);
      const mine = P.seal(code, where, opened);
      return {key: P.hex(code.key), seal: P.hex(code.sealKey), room: code.room,
              lobby: code.lobby, topic: P.topic(code, 'white', 'move'),
              lobbyTopic: P.gameTopic(code, 'join'), opened: P.encode(opened),
              changed: P.unseal(code, where, changed).name,
              moved: P.unseal(code, P.topic(code, 'black', 'move'), u8(sealed)).name,
              otherCode: P.unseal(other, where, u8(sealed)).name, mine: Array.from(mine),
              older: P.fromOlder(code, older), notOlder: P.fromOlder(code, u8(sealed))};
    }""", [str(code), where, list(sealed), older.decode()])
    assert got["key"] == code.key.hex() and got["seal"] == code.seal_key.hex()
    assert (got["room"], got["lobby"]) == (code.room, code.lobby)
    assert (got["topic"], got["lobbyTopic"]) == (where, lobby_topic(code, "join"))
    assert got["opened"] == messages.encode(move).decode()
    assert got["changed"] == got["moved"] == got["otherCode"] == "bad-seal"
    assert unseal(code, where, bytes(got["mine"])) == move
    assert unseal(code, game_topic(code, "black", "move"), bytes(got["mine"])).reason == "bad-seal"
    assert got["older"] is True and got["notOlder"] is False and from_older(code, older)

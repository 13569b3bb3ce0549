"""Two boards' links through a real Mosquitto: a whole game, a broker restart, forgeries."""

from __future__ import annotations

import asyncio
import gc
import random
import time
from collections.abc import Callable

import aiomqtt
import pytest
from navakankari.firmware.tools.local_broker import LocalBroker as Broker

from navakankari.engine.variants import new_game
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.link import OnlineLink, topic
from navakankari.firmware.online.log import MoveLog
from navakankari.firmware.online.messages import Move, sign
from navakankari.firmware.online.wire import seal

FAST = (0.05, 0.5)  # reconnect at once in tests
LIMIT = 10.0  # seconds before a test gives up waiting for the broker


class Pair:
    """White's and black's boards, each with its own log and link."""

    def __init__(self, broker: Broker, variant: str = "nine-mens-morris",
                 scheme: str = "mqtt", clock: Callable[[], float] = time.monotonic) -> None:
        self.code = GameCode.new()
        self.arrived: dict[str, asyncio.Queue[Move]] = {"white": asyncio.Queue(),
                                                        "black": asyncio.Queue()}
        self.links = {
            side: OnlineLink(BrokerAddress.parse(broker.url(user, scheme=scheme),
                                                 ca_file=broker.ca_file),
                             MoveLog(self.code, new_game(variant)), side,
                             on_move=self.arrived[side].put_nowait, backoff=FAST, clock=clock)
            for side, user in (("white", "grandma"), ("black", "ravi"))}
        self.tasks = [asyncio.create_task(link.run()) for link in self.links.values()]

    async def connected(self) -> None:
        for link in self.links.values():
            await asyncio.wait_for(link.connected.wait(), LIMIT)

    async def play(self, rng: random.Random, plies: int) -> None:
        for _ in range(plies):
            game = self.links["white"].moves.game
            if game.outcome() is not None:
                return
            side = str(game.turn)
            mover, other = self.links[side], self.links["black" if side == "white" else "white"]
            move = mover.moves.record(rng.choice(mover.moves.game.legal_actions()).text)
            await mover.send(move)
            assert await asyncio.wait_for(self.arrived[other.side].get(), LIMIT) == move

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.tasks.clear()
        gc.collect()  # the MQTT clients go while their loop runs

    def agree(self) -> bool:
        white, black = (self.links[s].moves for s in ("white", "black"))
        return (white.game.record() == black.game.record()
                and [m.mac for m in white.moves] == [m.mac for m in black.moves])


def test_two_boards_play_a_whole_game_through_the_broker(broker):
    async def main() -> None:
        pair = Pair(broker)
        await pair.connected()
        await pair.play(random.Random(1), 400)
        await pair.close()
        assert pair.links["white"].moves.game.outcome() is not None
        assert pair.agree()
        assert pair.links["white"].state.rejected == pair.links["black"].state.rejected == 0
    asyncio.run(main())


def test_a_move_made_while_the_broker_is_down_arrives_once_when_it_is_back(broker):
    async def main() -> None:
        pair = Pair(broker)
        await pair.connected()
        rng = random.Random(2)
        await pair.play(rng, 6)
        broker.stop()
        white = pair.links["white"]
        await asyncio.wait_for(_until(lambda: not white.connected.is_set()), LIMIT)
        move = white.moves.record(rng.choice(white.moves.game.legal_actions()).text)
        await white.send(move)  # nowhere to go: it waits in the log
        broker.start()
        assert await asyncio.wait_for(pair.arrived["black"].get(), LIMIT) == move
        await pair.play(rng, 6)
        await pair.close()
        assert pair.agree() and len(pair.links["black"].moves.moves) == 13
    asyncio.run(main())


def test_someone_with_a_broker_login_but_not_the_code_changes_nothing(broker):
    async def main() -> None:
        pair = Pair(broker)
        await pair.connected()
        await pair.play(random.Random(3), 4)
        black = pair.links["black"]
        white = pair.links["white"]
        before = black.moves.game.record()
        first = white.moves.moves[0]
        wrong_key = GameCode(pair.code.game, "000000000000").key
        forged = sign(wrong_key, Move(pair.code.game, 5, "white", "a1", white.moves.last_mac))
        wrong_side = sign(wrong_key, Move(pair.code.game, 5, "black", "a1", white.moves.last_mac))
        async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                  password="sneaky-1") as mallory:
            where = topic(pair.code, "white", "move")
            wrong = GameCode(pair.code.game, "000000000000")
            for payload in (seal(wrong, where, forged), seal(wrong, where, wrong_side),
                            seal(pair.code, where, first), b"\x00garbage",
                            b'{"kind": "move"}'):
                await mallory.publish(where, payload, qos=1)
        await asyncio.wait_for(_until(lambda: black.state.rejected >= 4), LIMIT)
        assert black.moves.game.record() == before and not black.moves.forked
        await pair.play(random.Random(4), 2)  # and the game goes on
        await pair.close()
        assert pair.agree()
    asyncio.run(main())


def test_a_wrong_password_is_one_clear_line(broker, caplog):
    async def main() -> None:
        link = OnlineLink(BrokerAddress.parse(broker.url("grandma", "wrong")),
                          MoveLog(GameCode.new(), new_game("navakankari")), "white",
                          backoff=FAST)
        task = asyncio.create_task(link.run())
        await asyncio.wait_for(_until(lambda: bool(link.state.problem)), LIMIT)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        del task
        gc.collect()  # the MQTT client goes while its loop runs
        assert link.state.problem == "the broker refused the login: check the user name and " \
                                     "password"
    asyncio.run(main())
    lines = [r.getMessage() for r in caplog.records if "refused the login" in r.getMessage()]
    assert len(lines) == 1 and "wrong" not in lines[0]


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


def _connects(broker, url: str, **files: str) -> str:
    """Connect one link; "" once connected, else the problem it reports."""
    async def main() -> str:
        link = OnlineLink(BrokerAddress.parse(url, **files),
                          MoveLog(GameCode.new(), new_game("navakankari")), "white",
                          backoff=FAST)
        task = asyncio.create_task(link.run())
        await asyncio.wait_for(_until(lambda: link.connected.is_set() or link.state.problem),
                               LIMIT)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        del task
        gc.collect()  # the MQTT client goes while its loop runs
        return "" if link.connected.is_set() else link.state.problem
    return asyncio.run(main())


def test_tls_with_the_clubs_ca_and_websockets_connect(broker):
    assert _connects(broker, broker.url(scheme="mqtts"), ca_file=broker.ca_file) == ""
    assert _connects(broker, broker.url(scheme="ws")) == ""


def test_a_certificate_from_an_unknown_ca_is_one_clear_problem(broker):
    problem = _connects(broker, broker.url(scheme="mqtts"))  # the system's CAs only
    assert problem.startswith("the broker's TLS certificate is not trusted")


@pytest.mark.parametrize("scheme", ["mqtts", "ws"])
def test_moves_go_through_tls_and_websockets_alike(broker, scheme):
    async def main() -> None:
        pair = Pair(broker, scheme=scheme)
        await pair.connected()
        await pair.play(random.Random(6), 12)
        await pair.close()
        assert pair.agree() and len(pair.links["black"].moves.moves) == 12
    asyncio.run(main())

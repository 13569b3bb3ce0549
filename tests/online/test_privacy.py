"""What another member of the club's broker learns of a game it does not hold the code of:
that some game goes on, how many messages of what size at what times, and which topics
belong together; not the game's id, the players' names, the variant, a move, nor where the
invitation's game is played."""

from __future__ import annotations

import asyncio
import gc
import random

import aiomqtt

from navakankari.engine.variants import new_game
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.invitation import host, join, offer
from navakankari.firmware.online.link import OnlineLink
from navakankari.firmware.online.log import MoveLog
from navakankari.firmware.online.messages import encode
from navakankari.firmware.online.wire import PREFIX, unseal

from test_link import FAST, LIMIT


def test_a_member_of_the_broker_learns_no_game_no_name_and_no_move(broker):
    async def main() -> None:
        seen: list[tuple[str, bytes]] = []
        listening = asyncio.Event()

        async def spy() -> None:
            async with aiomqtt.Client("127.0.0.1", broker.port, username="mallory",
                                      password="sneaky-1") as mallory:
                await mallory.subscribe("navakankari/#", qos=1)
                listening.set()
                async for message in mallory.messages:
                    if isinstance(message.payload, bytes):
                        seen.append((str(message.topic), message.payload))
        spying = asyncio.create_task(spy())
        await asyncio.wait_for(listening.wait(), LIMIT)
        code = GameCode.new()
        invite, toss = offer(code, "lasker", "white", "toss", "Grandma's board")
        hosting = asyncio.create_task(host(BrokerAddress.parse(broker.url("grandma")), code,
                                           invite, toss))
        joined = await join(BrokerAddress.parse(broker.url("ravi")), code, "Ravi's board")
        hosted = await asyncio.wait_for(hosting, LIMIT)
        assert hosted is not None and hosted.first == joined.first
        arrived: dict[str, asyncio.Queue] = {"white": asyncio.Queue(), "black": asyncio.Queue()}
        links = {side: OnlineLink(BrokerAddress.parse(broker.url(user)),
                                  MoveLog(code, new_game("lasker")), side,
                                  on_move=arrived[side].put_nowait, backoff=FAST)
                 for side, user in (("white", "grandma"), ("black", "ravi"))}
        tasks = [asyncio.create_task(link.run()) for link in links.values()]
        for link in links.values():
            await asyncio.wait_for(link.connected.wait(), LIMIT)
        rng, moves = random.Random(5), []
        for _ in range(8):
            side = str(links["white"].moves.game.turn)
            mover = links[side]
            move = mover.moves.record(rng.choice(mover.moves.game.legal_actions()).text)
            moves.append(move)
            await mover.send(move)
            await asyncio.wait_for(arrived["black" if side == "white" else "white"].get(), LIMIT)
        await links["white"].ask("takeback", 6)
        await asyncio.sleep(0.5)
        for task in (*tasks, spying):
            task.cancel()
        await asyncio.gather(*tasks, spying, return_exceptions=True)
        gc.collect()

        names = {topic.split("/")[2] for topic, _ in seen}
        assert names == {code.lobby, code.room}  # two unrelated names, nothing else
        assert all(topic.startswith(PREFIX + "/") for topic, _ in seen)
        secrets = [code.game, code.secret, str(code), "Grandma", "Ravi", "lasker", "toss",
                   "takeback", *(m.mac for m in moves), *(f'"{m.action}"' for m in moves)]
        sealed = [(t, p) for t, p in seen if p not in (b"", b"online", b"offline")]
        assert len(sealed) >= 20
        for topic, payload in seen:
            assert not any(word.encode() in payload or word in topic for word in secrets)
        # Whoever holds another code (the same game id, another secret) opens nothing.
        wrong = GameCode(code.game, "0" * 12)
        assert {unseal(wrong, t, p).reason for t, p in sealed} == {"bad-seal"}
        # The players themselves read every one of them.
        opened = [unseal(code, t, p) for t, p in sealed]
        assert all(encode(m) for m in opened) and {m.kind for m in opened} >= {
            "invite", "join", "reveal", "move", "snapshot", "request", "resync"}
    asyncio.run(main())

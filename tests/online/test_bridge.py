"""Two boards, each a session with scripted hands, play a whole game through a real broker:
each board's committed actions go out, the other's are carried out by hand and committed."""

from __future__ import annotations

import asyncio
import gc
import random

import pytest

from navakankari.engine.game import Side
from navakankari.engine.presets import preset
from navakankari.engine.variants import new_game
from navakankari.firmware.core.clockwork import drive
from navakankari.firmware.core.players import HAND, PlayerSpec
from navakankari.firmware.core.session import Session
from navakankari.firmware.core.tracker import TrackerSettings
from navakankari.firmware.online.bridge import OnlineBridge
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.code import GameCode
from navakankari.firmware.online.link import OnlineLink
from navakankari.firmware.online.log import MoveLog
from navakankari.sim.hands import ScriptedHands

LIMIT = 10.0
ONLINE = PlayerSpec("online")


class Board:
    """One home's board: a session, noisy scripted hands, a link and the bridge."""

    def __init__(self, broker, user: str, side: str, code: GameCode, variant: str,
                 seed: int) -> None:
        rules = preset(variant)
        mine = Side.WHITE if side == "white" else Side.BLACK
        players = {mine: HAND, mine.other: ONLINE}
        self.now = 0.0
        self.session = Session(rules, players, settings=TrackerSettings(), auto_new_game=False)
        start = new_game(rules)
        self.hands = ScriptedHands((), rng=random.Random(seed), chatter=3, pause=0.6)
        self.hands.setup(start.board.names(start.occupancy))
        self.now = drive(self.session, self._events(), now=self.now)  # armies set up, if any
        self.link = OnlineLink(BrokerAddress.parse(broker.url(user)),
                               MoveLog(code, new_game(rules)), side, backoff=(0.05, 0.5))
        self.bridge = OnlineBridge(self.session, self.link, lambda: self.now)
        self.task = asyncio.create_task(self.link.run())

    def _events(self):
        events = [e.__class__(e.point, e.present, e.t + self.now) for e in self.hands.events]
        self.hands.events.clear()
        self.hands.t = 0.0
        return events

    def act(self, action) -> None:
        """The hands here carry out one action; the session commits it when it settles."""
        self.hands.perform(self.session.game.board, action, order="hop")
        self.now = drive(self.session, self._events(), now=self.now)

    async def close(self) -> None:
        await self.bridge.drain()
        self.bridge.close()
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)
        del self.task
        gc.collect()  # the MQTT client goes while its loop runs


@pytest.mark.parametrize("variant", ["nine-mens-morris", "lasker", "nau-keti-keta"])
def test_two_boards_play_a_whole_game_with_their_hands(broker, variant):
    async def main() -> None:
        code = GameCode.new()
        boards = {"white": Board(broker, "grandma", "white", code, variant, 1),
                  "black": Board(broker, "ravi", "black", code, variant, 2)}
        for b in boards.values():
            await asyncio.wait_for(b.link.connected.wait(), LIMIT)
        rng = random.Random(5)
        for _ in range(400):
            shown = [b for b in boards.values() if b.session.tracker.forced]
            for b in shown:  # the other board's move, shown here: the hands carry it out
                for action in b.session.tracker.forced:
                    b.act(action)
            if shown:
                continue
            game = boards["white"].session.game
            if game.outcome() is not None:
                break
            here = boards[str(game.turn)]
            there = boards["black" if here is boards["white"] else "white"]
            before = len(there.link.moves.moves)
            here.act(rng.choice(here.session.game.legal_actions()))
            await asyncio.wait_for(_until(lambda: len(there.link.moves.moves) > before
                                          and there.session.tracker.forced), LIMIT)
        for b in boards.values():
            await b.close()
        white, black = boards["white"].session, boards["black"].session
        assert white.game.outcome() is not None or len(white.game.history) > 100
        assert any(a.text.startswith("x") or "x" in a.text for a in white.game.history)
        assert white.record() == black.record()
        assert [m.mac for m in boards["white"].link.moves.moves] == \
            [m.mac for m in boards["black"].link.moves.moves]
    asyncio.run(main())


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.005)

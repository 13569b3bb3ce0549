"""Online play as one of the daemon's services, when a broker is configured."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from ..online.broker import BrokerAddress
from ..online.play import OnlinePlay

if TYPE_CHECKING:
    from .loop import Daemon


def online_service(address: BrokerAddress, board_name: str, page: str = ""
                   ) -> Callable[["Daemon"], Awaitable[None]]:
    """A daemon service that keeps `daemon.online` (the page's invite and join use it) and
    links the game in play when it is an online one, until the daemon stops."""

    async def serve_online(daemon: "Daemon") -> None:
        daemon.online = OnlinePlay(daemon, address, board_name, page=page)
        try:
            await daemon.online.run()
        finally:
            daemon.online = None

    return serve_online

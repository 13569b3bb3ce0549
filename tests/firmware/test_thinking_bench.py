"""`bench thinking` stopped early: Ctrl-C ends it as any interrupted command, not with the
traceback of a daemon that failed."""

from __future__ import annotations

import pytest

from navakankari.firmware.daemon.loop import Daemon
from navakankari.firmware.tools import thinking_bench


def test_a_daemon_stopped_before_the_time_is_up_is_an_interrupt() -> None:
    async def stopped(daemon: Daemon) -> None:
        daemon.stop()  # what the loop's SIGINT handler does

    with pytest.raises(KeyboardInterrupt):
        thinking_bench.measure(60.0, services=[stopped])


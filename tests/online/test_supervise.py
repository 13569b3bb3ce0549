"""A task that meets an unexpected fault is logged once, shown, and started again later."""

from __future__ import annotations

import asyncio
import logging

import pytest

from navakankari.firmware.i18n.catalogs import translations
from navakankari.hal.words import N_, Phrase
from navakankari.firmware.online.supervise import SupervisedError, supervise


class Expected(RuntimeError):
    pass


def test_a_fault_is_logged_once_shown_and_the_task_started_again_with_backoff(caplog):
    waits: list[float] = []
    problems: list[str] = []
    starts = 0

    async def task() -> str:
        nonlocal starts
        starts += 1
        if starts <= 4:
            raise TypeError("compare_digest got a str with non-ASCII characters")
        return "done"

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    with caplog.at_level(logging.WARNING):
        got = asyncio.run(supervise("the link", task, on_problem=problems.append, sleep=sleep,
                                    backoff=(0.5, 1.5)))
    assert got == "done" and starts == 5
    assert waits == [0.5, 1.0, 1.5, 1.5]
    assert len(problems) == 4 and "the link stopped on an unexpected error (TypeError" in \
        problems[0]
    logged = [r for r in caplog.records if "unexpected error" in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None


def test_expected_failures_and_cancelling_pass_through():
    async def fails() -> None:
        raise Expected("no game waits under this code")

    async def sleep(seconds: float) -> None:
        raise AssertionError("an expected failure is not retried")

    with pytest.raises(Expected):
        asyncio.run(supervise("joining", fails, on_problem=print, passes=(Expected,),
                              sleep=sleep))

    async def cancelled() -> None:
        task = asyncio.create_task(supervise("the link", lambda: asyncio.sleep(60),
                                             on_problem=print))
        await asyncio.sleep(0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    asyncio.run(cancelled())


def test_a_task_a_person_waits_on_gives_up_after_its_tries():
    async def broken() -> None:
        raise KeyError("x")

    async def sleep(seconds: float) -> None:
        pass

    with pytest.raises(SupervisedError, match="joining stopped on an unexpected error") as raised:
        asyncio.run(supervise(Phrase(N_("joining")), broken, on_problem=lambda p: None,
                              sleep=sleep, tries=3))
    assert raised.value.problem.words(translations("hi")) == (
        "खेल से जुड़ना एक अनपेक्षित गड़बड़ी पर रुक गया (KeyError: 'x'); उसे फिर से शुरू किया जा "
        "रहा है")

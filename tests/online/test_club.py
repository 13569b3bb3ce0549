"""The club's shipped broker configuration, run by a real Mosquitto: only members play, an
oversized message goes nowhere, retained messages outlive a restart, and `navakankari broker`
starts it with one command, stops quietly on Ctrl-C and names Mosquitto's log when Mosquitto
stops on its own, in the player's language."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiomqtt
import pytest
from broker import USERS
from english_words import english_left

from navakankari.firmware.tools.local_broker import free_port
from navakankari.firmware.online import club
from navakankari.firmware.online.broker import BrokerAddress
from navakankari.firmware.online.link import mqtt_client

TOPIC = "navakankari/v1/ABCDEFGH/invite"


def client(broker, user: str, name: str) -> aiomqtt.Client:  # type: ignore[no-untyped-def]
    return mqtt_client(BrokerAddress.parse(broker.url(user)), name)


async def retained(broker, user: str, topic: str, wait: float = 1.0) -> list[bytes]:  # type: ignore[no-untyped-def]
    """What `user` reads on `topic` within `wait` seconds of subscribing."""
    got: list[bytes] = []
    async with client(broker, user, f"reader-{user}") as c:
        await c.subscribe(topic, qos=1)
        try:
            async with asyncio.timeout(wait):
                async for message in c.messages:
                    got.append(bytes(message.payload))  # type: ignore[arg-type]
        except TimeoutError:
            pass
    return got


def test_only_members_read_or_write_the_game_topics(broker) -> None:  # type: ignore[no-untyped-def]
    async def main() -> None:
        async with client(broker, "visitor", "visitor") as c:  # logs in, is not a member
            await c.publish(TOPIC, b"from a visitor", qos=1, retain=True)
        assert await retained(broker, "grandma", TOPIC) == []
        async with client(broker, "grandma", "grandma") as c:
            await c.publish(TOPIC, b"from grandma", qos=1, retain=True)
        assert await retained(broker, "ravi", TOPIC) == [b"from grandma"]
        assert await retained(broker, "visitor", TOPIC) == []

    asyncio.run(main())


def test_a_message_over_the_limit_goes_nowhere(broker) -> None:  # type: ignore[no-untyped-def]
    async def send(payload: bytes, topic: str) -> None:
        try:
            async with client(broker, "grandma", "grandma") as c:
                await c.publish(topic, payload, qos=1, retain=True)
        except aiomqtt.MqttError:  # the broker may close the connection of a sender
            pass

    async def main() -> None:
        await send(b"x" * (1024 * 1024 + 1), TOPIC)
        await send(b"x" * (1024 * 1024), TOPIC + "2")
        assert await retained(broker, "ravi", TOPIC) == []
        assert [len(p) for p in await retained(broker, "ravi", TOPIC + "2")] == [1024 * 1024]

    asyncio.run(main())


def test_retained_messages_outlive_a_restart(broker) -> None:  # type: ignore[no-untyped-def]
    async def publish() -> None:
        async with client(broker, "grandma", "grandma") as c:
            await c.publish(TOPIC, b"kept", qos=1, retain=True)

    asyncio.run(publish())
    broker.stop()
    broker.start()
    assert asyncio.run(retained(broker, "ravi", TOPIC)) == [b"kept"]


def test_a_shipped_file_that_changed_shape_is_named(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    changed = tmp_path / "navakankari.conf"
    changed.write_text(club.CONF.read_text().replace("listener 8883\n", "listener 8884\n"))
    monkeypatch.setattr(club, "CONF", changed)
    with pytest.raises(club.ClubConfigError, match="listener 8883"):
        club.local_config(tmp_path, club.Ports(1, 2, 3), run_as="me")


def test_the_acl_lists_each_member() -> None:
    text = club.acl_text(["asha", "ravi"])
    assert ("user asha\ntopic readwrite navakankari/v2/#\ntopic readwrite navakankari/v1/#\n"
            "user ravi\n") in text
    assert "user grandma" not in text and text.startswith("# Who may play")


def _children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


@pytest.mark.parametrize("stop, code", [(signal.SIGINT, "en"), (signal.SIGTERM, "hi"),
                                        (signal.SIGKILL, "ta")])
def test_navakankari_broker_runs_until_ctrl_c_sigterm_or_mosquitto_stops(  # type: ignore[no-untyped-def]
        tmp_path: Path, monkeypatch, stop, code: str) -> None:
    """Stopped by Ctrl-C or SIGTERM it stops Mosquitto and says nothing; a Mosquitto that
    stops on its own (killed) ends it with the log to read. What it prints is in the
    environment's language, the commands, addresses and paths as typed (hi: with the
    password it made for a login not given)."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8" if code == "en" else f"{code}_IN.UTF-8")
    ports = [str(free_port()) for _ in range(3)]
    folder = (tmp_path / "b").resolve()
    given = [] if code == "hi" else ["--user", f"asha:{USERS['ravi']}"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "navakankari.firmware.cli", "broker", "--folder", str(folder),
         *given, "--mqtt-port", ports[0], "--tls-port", ports[1], "--web-port", ports[2]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    lines = [proc.stdout.readline() for _ in range(4 if given else 5)]
    assert str(folder) in lines[0], "".join(lines) + proc.stderr.read()
    login, password = ("asha", USERS["ravi"]) if given else ("player", lines[1].split()[-1])

    async def log_in() -> None:
        address = BrokerAddress.parse(f"mqtt://{login}:{password}@127.0.0.1:{ports[0]}")
        async with mqtt_client(address, login) as c:
            await c.publish(TOPIC, b"hello", qos=1)

    asyncio.run(log_in())
    assert (folder / "page" / "index.html").exists()
    if stop == signal.SIGKILL:  # Mosquitto, not the command, goes
        [mosquitto] = _children(proc.pid)
        os.kill(mosquitto, stop)
    else:
        proc.send_signal(stop)
    out, err = proc.stdout.read(), proc.stderr.read()
    assert out == ""
    board = f"navakankari sim --broker mqtt://{login}:PASSWORD@127.0.0.1:{ports[0]} --board-name NAME"
    tls, page = f"mqtts://...:{ports[1]}", f"http://127.0.0.1:{ports[2]}/index.html"
    web, log = f"ws://127.0.0.1:{ports[2]}", f"{folder}/mosquitto.log"
    if stop == signal.SIGKILL:
        assert proc.wait(timeout=15) == 1 and err.count("\n") == 1 and log in err, err
        lines.append(err)
    else:
        assert proc.wait(timeout=15) == 0 and err == "", err
    if code == "en":
        assert "".join(lines) == (
            f"the broker runs in {folder} (Ctrl-C stops it); logins: asha\n"
            f"  boards:   {board}\n"
            f"            (or {tls} with ca_file {folder}/ca.crt)\n"
            f"  browsers: {page} (broker {web})\n")
    else:
        for named in (board, tls, page, web):
            assert named in "".join(lines), named
        for line in lines:
            assert english_left(line, str(folder), log, login, password, board, tls, "ca_file",
                                page, web, "navakankari broker", "mosquitto", "-9") == [], line
    for port in ports:  # Mosquitto stopped with it: its ports are free again
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", int(port)), timeout=1).close()


def test_the_shipped_configuration_bounds_what_one_login_can_do() -> None:
    """The broker runs it in every online test; here, that the bounds are in it."""
    from navakankari.firmware.online.club import CONF
    lines = set(CONF.read_text().splitlines())
    assert {"message_size_limit 1048576", "max_packet_size 1049600", "max_queued_messages 100",
            "max_inflight_messages 20", "persistent_client_expiration 1d"} <= lines

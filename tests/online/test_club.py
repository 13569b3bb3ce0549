"""The club's shipped broker configuration, run by a real Mosquitto: only members play, an
oversized message goes nowhere, retained messages outlive a restart, and `navakankari broker`
starts it with one command and stops quietly on Ctrl-C."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiomqtt
import pytest
from broker import USERS

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


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_navakankari_broker_runs_until_ctrl_c_or_sigterm(tmp_path: Path, stop) -> None:  # type: ignore[no-untyped-def]
    ports = [str(free_port()) for _ in range(3)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "navakankari.firmware.cli", "broker", "--folder",
         str(tmp_path / "b"), "--user", f"asha:{USERS['ravi']}", "--mqtt-port", ports[0],
         "--tls-port", ports[1], "--web-port", ports[2]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert first.startswith(f"the broker runs in {tmp_path / 'b'}"), first + proc.stderr.read()  # type: ignore[union-attr]

    async def login() -> None:
        address = BrokerAddress.parse(f"mqtt://asha:{USERS['ravi']}@127.0.0.1:{ports[0]}")
        async with mqtt_client(address, "asha") as c:
            await c.publish(TOPIC, b"hello", qos=1)

    asyncio.run(login())
    assert (tmp_path / "b" / "page" / "index.html").exists()
    proc.send_signal(stop)
    out, err = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
    assert proc.wait(timeout=15) == 0 and err == "", err
    assert f"http://127.0.0.1:{ports[2]}/index.html" in out
    for port in ports:  # Mosquitto stopped with it: its ports are free again
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", int(port)), timeout=1).close()


def test_the_shipped_configuration_bounds_what_one_login_can_do() -> None:
    """The broker runs it in every online test; here, that the bounds are in it."""
    from navakankari.firmware.online.club import CONF
    lines = set(CONF.read_text().splitlines())
    assert {"message_size_limit 1048576", "max_packet_size 1049600", "max_queued_messages 100",
            "max_inflight_messages 20", "persistent_client_expiration 1d"} <= lines

"""The browser player's page as a folder of plain files: written whole, nothing it loads
missing, its copy of mqtt.js the pinned one with its licence."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from navakankari.firmware.cli import main as cli
from navakankari.firmware.online.player_page import FILES, FOLDER, variants_script

MQTT_JS_SHA256 = "f3cbeae580d3010048938ee370f2db0c15d16e6f7fc147cb32ae5510e571b387"
"""dist/mqtt.min.js of the npm package mqtt 5.16.0."""
NOBLE_JS_SHA256 = "baa1bcab130f959c074d02f1f52d6f71b84272285daf445b41a8f2a2f7529802"
"""noble.js as firmware/online/player-vendor/build.sh writes it from @noble/hashes 2.4.0 and
@noble/ciphers 2.4.0."""


def test_online_page_writes_every_file(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert cli.main(["online-page", str(tmp_path / "www")]) == 0
    assert sorted(p.name for p in (tmp_path / "www").iterdir()) == sorted(FILES)
    assert (tmp_path / "www" / "variants.js").read_text() == variants_script()
    assert f"wrote {len(FILES)} files" in capsys.readouterr().out


def test_the_page_loads_only_files_it_ships() -> None:
    html = (FOLDER / "index.html").read_text()
    loaded = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert loaded and set(loaded) <= set(FILES)


def test_mqtt_js_is_the_pinned_release_with_its_licence() -> None:
    assert hashlib.sha256((FOLDER / "mqtt.min.js").read_bytes()).hexdigest() == MQTT_JS_SHA256
    assert "The MIT License" in (FOLDER / "mqtt.LICENSE.md").read_text()


def test_the_noble_bundle_is_the_recorded_build_with_its_licences() -> None:
    """noble.js is what build.sh makes of the versions package-lock.json pins, and ships."""
    import json

    assert hashlib.sha256((FOLDER / "noble.js").read_bytes()).hexdigest() == NOBLE_JS_SHA256
    lock = json.loads((FOLDER.parent / "player-vendor" / "package-lock.json").read_text())
    pinned = {name: lock["packages"][f"node_modules/{name}"]["version"]
              for name in ("@noble/hashes", "@noble/ciphers")}
    banner = (FOLDER / "noble.js").read_text().splitlines()[0]
    assert f"@noble/hashes {pinned['@noble/hashes']} and @noble/ciphers " \
           f"{pinned['@noble/ciphers']}" in banner
    for name in ("noble-hashes.LICENSE", "noble-ciphers.LICENSE"):
        assert "The MIT License" in (FOLDER / name).read_text()
        assert name in FILES


def test_a_folder_that_cannot_be_written_is_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert cli.main(["online-page", str(blocker / "www")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("navakankari online-page: ") and err.count("\n") == 1


def test_the_protocols_examples_are_real_messages() -> None:
    """Every example in PROTOCOL.md checks under the documented code's key and is written
    back byte for byte, and the documented key is the code's."""
    from navakankari.firmware.online import messages
    from navakankari.firmware.online.code import GameCode

    text = (FOLDER.parent / "PROTOCOL.md").read_text()
    code = GameCode.parse("K7M-2P9-QRT-AX4-B8C-D3F-GH4")
    assert code.key.hex() in text
    examples = re.findall(r"```json\n(.*?)\n```", text, re.S)
    kinds = set()
    for example in examples:
        message = messages.decode(code.key, code.game, example)
        assert messages.encode(message).decode() == example
        kinds.add(message.kind)
    assert kinds == {"invite", "join", "reveal", "forfeit", "move", "snapshot", "request",
                     "answer", "resync"}
    assert str(code.next()) in text
    for value in (code.seal_key.hex(), code.room, code.lobby):
        assert value in text
    # The sealed example opens, on the topic named, to the first move shown.
    from navakankari.firmware.online.wire import game_topic, unseal

    (sealed,) = re.findall(r"```sealed\n(.*?)\n```", text, re.S)
    first = unseal(code, game_topic(code, "white", "move"), bytes.fromhex(sealed))
    assert messages.encode(first).decode() in examples

"""The browser player: a static page that plays an online game against a board.

It is a folder of plain files (`player/`), served by any static host or by Mosquitto's own
websockets listener (`http_dir`), and speaks the protocol of PROTOCOL.md over MQTT over
WebSockets with mqtt.js. What it knows of the rules comes from the engine: `variants.js` is
written here from the presets, so the page and the boards never disagree on a board's lines.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from navakankari.engine.boards import BOARDS
from navakankari.engine.presets import PRESETS
from navakankari.firmware.i18n.catalogs import LANGUAGES, WORDS_JS, script_catalog, translations

from ..core.menu import variant_label

FOLDER = Path(__file__).resolve().parent / "player"
VARIANTS_FILE = "variants.js"
MESSAGES_FILE = "messages.js"
FILES = ("index.html", "player.css", "player.js", "protocol.js", "rules.js", "mqtt.min.js",
         "mqtt.LICENSE.md", "noble.js", "noble-hashes.LICENSE", "noble-ciphers.LICENSE",
         VARIANTS_FILE, WORDS_JS.name, MESSAGES_FILE)
"""Everything the page loads, with the licences of what came from the npm registry: mqtt.js
5.16.0 unchanged, and @noble/hashes 2.4.0 with @noble/ciphers 2.4.0 bundled by
`player-vendor/build.sh` (its README says how)."""


def variants() -> dict[str, Any]:
    """The morris presets as the page plays them: the rule options and the board."""
    out: dict[str, Any] = {}
    for name, rules in PRESETS.items():
        if rules.game != "morris":
            continue
        board = BOARDS[rules.board]
        out[name] = {
            "name": name,
            "rules": rules.to_dict(),
            "board": {
                "points": list(board.points),
                "coordinates": [list(c) for c in board.coordinates],
                "adjacency": [board.bits(m) for m in board.adjacency],
                "mills": [[board.index(p) for p in mill] for mill in board.mills],
                "lines": [list(line) for line in board.lines],
            },
        }
    return out


def variants_script() -> str:
    """`variants.js` as it must read."""
    lines = ",\n".join(f" {json.dumps(name)}: {json.dumps(value, sort_keys=True)}"
                        for name, value in sorted(variants().items()))
    return ("// Written by `navakankari online-page` from the engine's presets: do not edit.\n"
            f"window.NAVAKANKARI_VARIANTS = {{\n{lines}\n}};\n")


def messages_script() -> str:
    """`messages.js`: the page's words in every language the board speaks, from the same
    catalogs as the board's (a static host has no daemon to ask for them)."""
    catalogs = {code: {**script_catalog(code).to_dict(),
                       "variant_names": {name: variant_label(name, translations(code))
                                         for name in variants()}}
                for code in LANGUAGES}
    return ("// Written by `navakankari online-page` from the board's catalogs: do not edit.\n"
            f"window.NAVAKANKARI_MESSAGES = {json.dumps(catalogs, ensure_ascii=False)};\n")


def write_page(folder: Path) -> list[Path]:
    """The page's files in `folder` (made if missing), ready for a static host."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in FILES:
        target = folder / name
        if name == VARIANTS_FILE:
            target.write_text(variants_script())
        elif name == MESSAGES_FILE:
            target.write_text(messages_script(), encoding="utf-8")
        elif name == WORDS_JS.name:
            shutil.copyfile(WORDS_JS, target)
        else:
            shutil.copyfile(FOLDER / name, target)
        written.append(target)
    return written

"""The speaker: what the unit allows for spoken announcements and what doctor checks of it.

Speech can be turned on from the board's menu or the page at any time, so every unit for a
real board allows ALSA's devices (/dev/snd/*, the `audio` group that owns them on Debian and
Raspberry Pi OS) whether or not the configuration turns speech on. The simulated board's
unit opens no device at all: its page plays the sentences.

Everything doctor reads is a file under its root folder: /proc/asound/cards (the sound
cards the kernel found), /usr/bin/espeak-ng and /usr/bin/aplay, and espeak-ng's data (a
language's rules in espeak-ng-data/lang/, its dictionary beside them).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..daemon.voice import APLAY, ESPEAK, VOICES

if TYPE_CHECKING:
    from navakankari.hal.needs import Device, Needs

PI_JACK = "Headphones"
"""The card id Raspberry Pi OS (Bookworm) gives the Pi's 3.5 mm jack (snd_bcm2835)."""
PACKAGES = "espeak-ng alsa-utils"


def audio_device() -> Device:
    """ALSA's device nodes, as the unit and doctor name a device (hal is imported only when
    asked: `service` stays quick to start)."""
    from navakankari.hal.needs import Device

    return Device("/dev/snd/*", "char-alsa", "audio", "the speaker (ALSA): spoken announcements")


def speaker_needs(n: Needs) -> Needs:
    """`n` with the speaker's devices added, unless the profile opens no device (the
    simulated board). Adding twice changes nothing."""
    audio = audio_device()
    if not n.devices or audio in n.devices:
        return n
    return dataclasses.replace(n, devices=(*n.devices, audio))


@dataclass(frozen=True)
class SpeechSetting:
    """What the configuration says of speech (doctor's view of [speech] and the language)."""

    enabled: bool = False
    device: str = ""
    language: str = "en"


def alsa_cards(text: str) -> dict[str, str]:
    """/proc/asound/cards as {index: id}: ` 0 [Headphones     ]: bcm2835_headpho - ...`."""
    cards = {}
    for line in text.splitlines():
        found = re.match(r"\s*(\d+)\s+\[([^\]]+)\]", line)
        if found:
            cards[found.group(1)] = found.group(2).strip()
    return cards


def sound_cards(root: Path) -> dict[str, str]:
    """The sound cards the kernel found under `root` (none where /proc/asound is absent)."""
    try:
        return alsa_cards((root / "proc/asound/cards").read_text(errors="replace"))
    except OSError:
        return {}


def device_card(device: str) -> str | None:
    """The card an ALSA device name names ("plughw:CARD=Device,DEV=0" -> "Device",
    "hw:1,0" -> "1"); None for the default device or a plugin that names none."""
    _, sep, args = device.partition(":")
    if not sep or not args:
        return None
    for part in args.split(","):
        key, eq, value = part.partition("=")
        if eq and key == "CARD":
            return value.strip('"')
        if not eq:
            return part  # the first positional argument is the card
    return None


def espeak_data(root: Path) -> Path | None:
    """espeak-ng's data folder under `root` (/usr/lib/<triplet>/espeak-ng-data), if any."""
    for path in sorted((root / "usr/lib").glob("*/espeak-ng-data")):
        return path
    shared = root / "usr/share/espeak-ng-data"
    return shared if shared.is_dir() else None


def voice_installed(data: Path, language: str) -> bool:
    """A language's voice is there when its rules (lang/FAMILY/VOICE) and its dictionary
    (VOICE_dict) are."""
    voice = VOICES.get(language, language)
    return any((data / "lang").glob(f"*/{voice}")) and (data / f"{voice}_dict").exists()


def programs_missing(root: Path) -> list[str]:
    return [name for name in (ESPEAK, APLAY) if not (root / "usr/bin" / name).exists()]

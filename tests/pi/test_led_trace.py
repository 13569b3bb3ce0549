"""The emulated Pi's LED check read here without the emulator: a frame the real neopixel_spi
library makes, printed as the kernel's kprobe prints it, parses back to its colours."""

from __future__ import annotations

import sys
from pathlib import Path

import checks
from navakankari.hal import load_profile
from navakankari.hal.backends.neopixel_leds import NeoPixelSpiStrip

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hal"))
from hal_fakes import FakeSPI

SHOWN = {"a7": (255, 0, 0), "d4": (0, 255, 0), "g1": (128, 0, 255)}
# gamma 2.6 and brightness 0.25: 255 -> 64, 128 -> 11
LIT = {"a7": (64, 0, 0), "d4": (0, 64, 0), "g1": (11, 0, 64)}


def _traced(frame: bytes) -> str:
    """The trace line the kprobe prints for one transfer of `frame`."""
    window = frame[checks.SKIP:checks.SKIP + 512].ljust(512, b"\0")
    values = ",".join(f"{int.from_bytes(window[i:i + 8], 'little'):#x}" for i in range(0, 512, 8))
    return ("  navakankari-412  [002] d....  881.776142: frame: (bcm2835_spi_transfer_one+0x0/"
            f"0xaa0 [spi_bcm2835]) len={len(frame)} tx={{{values}}}\n")


def _frame() -> tuple[bytes, dict[str, int]]:
    index = dict(load_profile("direct-spi-19").leds.index)
    spi = FakeSPI()
    strip = NeoPixelSpiStrip(index, spi=spi, brightness=0.25)
    strip.show(SHOWN)
    return spi.writes[-1], index


def test_a_frame_of_the_library_reads_back_as_its_colours_from_the_trace():
    frame, index = _frame()
    [(length, data)] = checks.parse_trace("# tracer: nop\n" + _traced(frame))
    assert length == len(frame)
    colours = checks.decode_frame(length, data, len(index))
    assert colours is not None
    lit = {p: colours[i] for p, i in index.items() if colours[i] != (0, 0, 0)}
    assert lit == LIT


def test_a_frame_not_of_that_shape_is_not_read():
    frame, index = _frame()
    broken = bytearray(frame)
    broken[200] = 0x0F  # neither a 0 nor a 1
    [(length, data)] = checks.parse_trace(_traced(bytes(broken)))
    assert checks.decode_frame(length, data, len(index)) is None
    [(length, data)] = checks.parse_trace(_traced(frame[:-1]))  # one byte short
    assert checks.decode_frame(length, data, len(index)) is None


def test_the_leds_check_passes_on_the_frames_and_fails_on_none(capsys):
    frame, index = _frame()
    order = sorted(index, key=index.get)
    report = checks.Report()
    checks.leds_check(report, checks.parse_trace(_traced(frame) * 2), order)
    checks.leds_check(report, [], order)
    assert [status for status, _, _ in report.lines] == ["PASS", "FAIL"]
    assert "'g1': (11, 0, 64)" in capsys.readouterr().out

"""Open the sensors and LEDs a wiring profile describes.

The backend is chosen by argument, then by the environment (`NAVAKANKARI_BACKEND=sim` runs any
profile on the simulated board, so a laptop needs no pins), then by the profile. Each backend's
module, and the hardware library it needs, is imported only when that backend is opened.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from .leds import LedStrip
from .profile import GpioSensorConfig, LedConfig, MatrixSensorConfig, Mcp23017SensorConfig, Profile
from .sensors import Clock, SensorArray
from .words import N_, Phrase, Words, words_of

log = logging.getLogger(__name__)

BACKEND_ENV = "NAVAKANKARI_BACKEND"
SIM = "sim"


class BackendError(RuntimeError):
    """The backend asked for does not exist or cannot start here. The problem is a `Phrase`,
    so the firmware says it in the maker's language (`words`)."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        super().__init__(problem)

    def words(self, tr: Words) -> str:
        """The problem in `tr`'s language."""
        return words_of(self.problem, tr)


@dataclass(frozen=True)
class BoardHardware:
    """The opened hardware (named apart from the engine's `Board`, a point graph).
    `simulation` is the `SimulatedBoard` when the backend is `sim` (hands act on it),
    otherwise None."""

    sensors: SensorArray
    leds: LedStrip
    simulation: Any = None

    def close(self) -> None:
        """LEDs off, sensors released; safe to call twice."""
        try:
            self.leds.close()
        finally:
            self.sensors.close()

    def __enter__(self) -> BoardHardware:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def chosen_backend(argument: str | None = None) -> str | None:
    """The backend forced by argument or environment, or None to follow the profile."""
    if argument:
        return argument
    forced = os.environ.get(BACKEND_ENV, "").strip()
    if forced and forced != SIM:
        raise BackendError(Phrase(N_("{variable}={value}: only {sim} may be forced"),
                                  variable=BACKEND_ENV, value=repr(forced), sim=repr(SIM)))
    return forced or None


def open_board(
    profile: Profile,
    *,
    clock: Clock = time.monotonic,
    sleep: Callable[[float], None] | None = None,
    backend: str | None = None,
) -> BoardHardware:
    """Open the profile's sensors and LEDs (or the simulated board, if forced)."""
    forced = chosen_backend(backend)
    if forced not in (None, SIM):
        raise BackendError(Phrase(N_("unknown backend {value}: only {sim} may be forced"),
                                  value=repr(forced), sim=repr(SIM)))
    if forced == SIM or (profile.sensors.backend == SIM and profile.leds.backend == SIM):
        return _open_sim(profile, clock, sleep)
    if SIM in (profile.sensors.backend, profile.leds.backend):
        raise BackendError(Phrase(N_("a profile simulates both sensors and LEDs or neither")))
    sensors = open_sensors(profile, clock=clock)
    try:
        leds = open_leds(profile.leds)
    except BaseException:
        sensors.close()
        raise
    return BoardHardware(sensors, leds)


BOARD_GROUP = "navakankari.boards"
"""Entry-point group of boards that live outside the hardware layer. The simulated board
implements the hardware interfaces but belongs to `sim`, which imports `hal`; were `hal` to
import it back, the two would form a circle. So `sim` is declared under this group
(pyproject.toml) as an opener `(profile, clock, sleep) -> BoardHardware`, and found by name."""

BoardOpener = Callable[[Profile, Clock, "Callable[[float], None] | None"], "BoardHardware"]


def board_opener(name: str) -> BoardOpener:
    """The opener registered as `name`; a BackendError names what is registered."""
    found = entry_points(group=BOARD_GROUP)
    for entry in found:
        if entry.name == name:
            opener: BoardOpener = entry.load()
            return opener
    known = ", ".join(sorted(e.name for e in found)) or "none"
    raise BackendError(Phrase(N_("no board registered as {name} under {group} (registered: "
                                 "{known}); is the package installed?"), name=repr(name),
                              group=BOARD_GROUP, known=known))


def _open_sim(profile: Profile, clock: Clock,
              sleep: Callable[[float], None] | None) -> BoardHardware:
    return board_opener(SIM)(profile, clock, sleep)


def open_sensors(profile: Profile, *, clock: Clock = time.monotonic) -> SensorArray:
    """The real sensor backend of a profile."""
    try:
        return _open_sensors(profile, clock)
    except ImportError as exc:
        raise BackendError(Phrase(
            N_("cannot open {backend} sensors here ({problem}); on a computer without GPIO, "
               "set {variable}={sim}"), backend=repr(profile.sensors.backend), problem=exc,
            variable=BACKEND_ENV, sim=SIM)) from exc
    except Exception as exc:
        if type(exc).__module__.startswith("gpiozero"):  # pin in use, no such pin, ...
            raise BackendError(Phrase(N_("cannot open {backend} sensors: {problem}"),
                                      backend=repr(profile.sensors.backend), problem=exc)) from exc
        raise


def _open_sensors(profile: Profile, clock: Clock) -> SensorArray:
    s = profile.sensors
    if isinstance(s, GpioSensorConfig):
        from .backends.gpiozero_sensors import GpioZeroSensors

        return GpioZeroSensors(s.pins, clock=clock)
    if isinstance(s, MatrixSensorConfig):
        from .backends.matrix_sensors import MatrixSensors

        return MatrixSensors(s.rows, s.columns, s.cells, scan_hz=s.scan_hz, clock=clock)
    if isinstance(s, Mcp23017SensorConfig):
        from .backends.mcp23017_sensors import Mcp23017Sensors

        return Mcp23017Sensors(s.addresses, s.interrupt_pin, s.channels, clock=clock)
    raise BackendError(Phrase(N_("no real sensor backend for {backend}"), backend=repr(s.backend)))


def open_leds(led: LedConfig) -> LedStrip:
    """The real LED backend of a profile's [leds] table."""
    from .backends import neopixel_leds

    if led.backend == "neopixel":
        return neopixel_leds.NeoPixelStrip(
            led.index, pin=led.pin or 18, count=led.count, pixel_order=led.pixel_order,
            brightness=led.brightness, gamma=led.gamma)
    if led.backend == "neopixel_spi":
        return neopixel_leds.NeoPixelSpiStrip(
            led.index, count=led.count, pixel_order=led.pixel_order, brightness=led.brightness,
            gamma=led.gamma)
    raise BackendError(Phrase(N_("no real LED backend for {backend}"), backend=repr(led.backend)))

"""`navakankari bench poll`: what the direct-GPIO backend's slow poll costs in CPU.

The backend reads every sensor's level each POLL_S seconds besides taking edges (so a missed
edge cannot hide a pebble). This reads the 24 pins of direct-24 that many times through
gpiozero, on the Pi's own pin library there, on gpiozero's MockFactory elsewhere, and prints
the process CPU time per poll and the share of one core the poll takes at its interval.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable


def measure(polls: int) -> tuple[float, str]:
    """CPU seconds per poll of direct-24's pins, and the pin library that read them."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    from navakankari.hal import load_profile
    from navakankari.hal.profile import GpioSensorConfig
    from navakankari.hal.backends.gpiozero_sensors import GpioZeroSensors

    factory = None
    try:
        with warnings.catch_warnings():  # each library it tries and cannot use, on a non-Pi
            warnings.simplefilter("ignore")
            Device.ensure_pin_factory()
    except BadPinFactory:  # not a Pi: gpiozero's own mock pins
        from gpiozero.pins.mock import MockFactory

        factory = MockFactory()
    wired = load_profile("direct-24").sensors
    assert isinstance(wired, GpioSensorConfig), wired
    pins = wired.pins
    with GpioZeroSensors(pins, pin_factory=factory, thread=False) as sensors:
        sensors.start(lambda event: None)
        name = type(factory or Device.pin_factory).__name__
        start = time.process_time()
        for _ in range(polls):
            sensors.poll_once()
        spent = time.process_time() - start
    if factory is not None:
        factory.close()
    return spent / polls, name


def run(out: Callable[[str], None] = print, quick: bool = False) -> float:
    from navakankari.hal.backends.gpiozero_sensors import POLL_S

    polls = 2000 if quick else 20000
    per_poll, factory = measure(polls)
    share = per_poll / POLL_S * 100
    out(f"poll of 24 pins ({factory}, {polls} polls): {per_poll * 1e6:.1f} us CPU each; "
        f"every {POLL_S * 1000:.0f} ms that is {share:.3f} % of one core")
    return share

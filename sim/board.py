"""The simulated board: pebbles on points, virtual sensors that see them, virtual LEDs.

Scripted hands act through `place`, `lift`, `slide` and `chatter`; the sensors report what a real
board's would, edges included (a slide closes the sensors it passes, a pebble set down may
chatter), synchronously in the caller's thread with times from the injected clock. Unlike real
sensors, the board also knows every pebble's colour, so tests can check what the firmware
believes against the truth.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from navakankari.hal.board import BoardHardware
from navakankari.hal.leds import DEFAULT_GAMMA, RGB, LedStrip
from navakankari.hal.profile import Profile
from navakankari.hal.sensors import Clock, SensorArray, SensorEvent
from navakankari.hal.words import N_, Phrase

from .clock import ManualClock
from .gestures import HAND, Timing, bounces, passes

log = logging.getLogger(__name__)

Sleep = Callable[[float], None]


class SimulationError(ValueError):
    """A hand action that the board cannot do (no pebble there, point taken, unknown point)."""


@dataclass(frozen=True)
class SensorFaults:
    """Wiring faults to simulate, for testing the self-test and the firmware's reactions."""

    stuck_on: frozenset[str] = frozenset()
    """Sensors that read a pebble whatever is there."""
    dead: frozenset[str] = frozenset()
    """Sensors that never read a pebble."""
    crossed: Mapping[str, str] = field(default_factory=dict)
    """A pebble on the key point is read by the value point's sensor (swapped wires)."""


class SimulatedSensors(SensorArray):
    """Sensors whose state is set by the simulation (`drive`), not by pins."""

    def __init__(self, points: Iterable[str], *, clock: Clock) -> None:
        super().__init__(points, clock=clock)
        self._closed_sensors: set[str] = set()

    def _read(self) -> Iterable[str]:
        return set(self._closed_sensors)

    def drive(self, point: str, present: bool) -> None:
        """Set one sensor's raw state, as the hardware would see it, and report the edge."""
        if point not in self.points:
            raise SimulationError(Phrase(N_("no sensor at {point}"), point=repr(point)))
        if present:
            self._closed_sensors.add(point)
        else:
            self._closed_sensors.discard(point)
        self._emit(point, present)


@dataclass(frozen=True)
class LedFrame:
    """One frame written to the virtual LEDs: what was asked, and what the LEDs were sent."""

    t: float
    colours: Mapping[str, RGB]
    """Requested colours of the lit points (dark points absent)."""
    pixels: tuple[RGB, ...]
    """Corrected output per LED index (gamma and brightness cap applied)."""


class SimulatedLeds(LedStrip):
    """LEDs that keep the last `log_size` frames, timestamped with the injected clock."""

    def __init__(
        self,
        index: Mapping[str, int],
        *,
        clock: Clock,
        count: int | None = None,
        brightness: float = 1.0,
        gamma: float = DEFAULT_GAMMA,
        log_size: int = 1000,
    ) -> None:
        super().__init__(index, count=count, brightness=brightness, gamma=gamma)
        self._clock = clock
        self.frames: deque[LedFrame] = deque(maxlen=log_size)

    def _write(self, pixels: Sequence[RGB]) -> None:
        colours = {p: c for p, c in self._pending.items() if c != (0, 0, 0)}
        self.frames.append(LedFrame(self._clock(), colours, tuple(pixels)))

    @property
    def lit(self) -> Mapping[str, RGB]:
        """The requested colours of the last frame (empty before the first)."""
        return self.frames[-1].colours if self.frames else {}


class SimulatedBoard:
    """Pebbles, sensors and LEDs of a board with the given points.

    With the default `ManualClock`, actions that take time (slides, chatter) advance the clock
    themselves and every event is delivered before the action returns.
    """

    def __init__(
        self,
        points: Sequence[str],
        *,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
        led_index: Mapping[str, int] | None = None,
        led_count: int | None = None,
        brightness: float = 1.0,
        gamma: float = DEFAULT_GAMMA,
        faults: SensorFaults = SensorFaults(),
        log_size: int = 1000,
    ) -> None:
        if clock is None:
            clock = ManualClock()
        if sleep is None:
            sleep = clock.advance if isinstance(clock, ManualClock) else time.sleep
        self.clock = clock
        self._sleep = sleep
        self.points = tuple(points)
        self.faults = faults
        self.sensors = SimulatedSensors(self.points, clock=clock)
        index = led_index if led_index is not None else {p: i for i, p in enumerate(self.points)}
        self.leds = SimulatedLeds(
            index, clock=clock, count=led_count, brightness=brightness, gamma=gamma, log_size=log_size
        )
        self._pebbles: dict[str, str] = {}
        self._passing: set[str] = set()
        self._sync()

    # --- the truth ------------------------------------------------------------------------

    @property
    def pebbles(self) -> Mapping[str, str]:
        """Where the pebbles are and their true colours."""
        return dict(self._pebbles)

    def occupied(self) -> frozenset[str]:
        return frozenset(self._pebbles)

    # --- hands ----------------------------------------------------------------------------

    def place(self, point: str, colour: str = "white", *, chatter: int = 0) -> None:
        """Set a pebble down on an empty point; `chatter` bounces of its sensor follow."""
        self._check_point(point)
        if point in self._pebbles:
            raise SimulationError(Phrase(N_("{point} already holds a pebble"), point=point))
        self._pebbles[point] = colour
        self._sync()
        if chatter:
            self.chatter(point, chatter)

    def lift(self, point: str, *, chatter: int = 0) -> str:
        """Take the pebble off `point`; returns its colour."""
        self._check_point(point)
        if point not in self._pebbles:
            raise SimulationError(Phrase(N_("there is no pebble on {point}"), point=point))
        colour = self._pebbles.pop(point)
        self._sync()
        if chatter:
            self.chatter(point, chatter)
        return colour

    def slide(self, path: Sequence[str], *, step: float | None = None,
              dwell: float | None = None) -> None:
        """Slide the pebble on `path[0]` across the board to `path[-1]`, the way
        `sim.gestures.passes` says: each point between closes its sensor for `dwell` seconds,
        `step` seconds apart (the hand's timing unless given), and it stays on the last point.
        """
        if len(path) < 2:
            raise SimulationError(Phrase(N_("a slide needs a start and an end")))
        for point in path:
            self._check_point(point)
        if path[-1] in self._pebbles:
            raise SimulationError(Phrase(N_("{point} already holds a pebble"), point=path[-1]))
        timing = HAND.slide(step, dwell)
        steps = list(passes(path, timing))
        colour = self.lift(path[0])
        for wait, point, closed in steps:
            self.wait(wait)
            (self._passing.add if closed else self._passing.discard)(point)
            self._sync()
        self.wait(timing.step)
        self.place(path[-1], colour)

    def chatter(self, point: str, n: int, *, interval: float | None = None) -> None:
        """`n` bounces of the sensor that sees `point` (`sim.gestures.bounces`): it flips and
        flips back, `interval` apart (the hand's timing unless given)."""
        self._check_point(point)
        sensor = self.faults.crossed.get(point, point)
        state = sensor in self._sensor_states()
        timing = HAND if interval is None else Timing(bounce=interval)
        for wait, flipped in bounces(n, timing):
            self.wait(wait)
            self.sensors.drive(sensor, state != flipped)

    def wait(self, dt: float) -> None:
        """Let `dt` seconds pass (advances a ManualClock, sleeps on a real one)."""
        if dt > 0:
            self._sleep(dt)

    def clear(self) -> None:
        """Lift every pebble."""
        for point in list(self._pebbles):
            self.lift(point)

    def replay(self, events: Iterable[SensorEvent], *, t0: float | None = None) -> None:
        """Drive the sensors with recorded raw events, `t` seconds after `t0` (default: now)."""
        start = self.clock() if t0 is None else t0
        for event in events:
            self.wait(start + event.t - self.clock())
            self.sensors.drive(event.point, event.present)

    # --- internals ------------------------------------------------------------------------

    def _check_point(self, point: str) -> None:
        if point not in self.points:
            raise SimulationError(Phrase(N_("unknown point {point}"), point=repr(point)))

    def _sensor_states(self) -> set[str]:
        magnets = set(self._pebbles) | self._passing
        closed = {self.faults.crossed.get(p, p) for p in magnets}
        return (closed | set(self.faults.stuck_on)) - set(self.faults.dead)

    def _sync(self) -> None:
        closed = self._sensor_states()
        now = self.sensors._read()
        for point in self.points:
            if (point in closed) != (point in now):
                self.sensors.drive(point, point in closed)

    def close(self) -> None:
        self.sensors.close()
        self.leds.close()


def open_simulated(profile: Profile, clock: Clock = time.monotonic,
                   sleep: Callable[[float], None] | None = None) -> BoardHardware:
    """A simulated board for a wiring profile: its points, its LED chain, brightness and
    gamma. Registered as the `sim` board (pyproject.toml's `navakankari.boards` entry points),
    which is how `navakankari.hal.open_board` finds it without importing this package."""
    led = profile.leds
    simulation = SimulatedBoard(
        profile.points,
        clock=clock,
        sleep=sleep,
        led_index=led.index,
        led_count=led.count,
        brightness=led.brightness,
        gamma=led.gamma,
    )
    log.info("simulated board with %d points (%s)", len(profile.points), profile.name)
    return BoardHardware(simulation.sensors, simulation.leds, simulation)

"""The shape and timing of what hands do to a board's sensors, said once.

The scripted hands (which write timed sensor events for the tests, the benchmark and
`run --sim-hands`) and the simulated board (whose sensors a page or a test drives live) make
the same gestures: a pebble set down or lifted bounces its sensor, and a slid pebble closes
the sensor of every point it passes over on the way. Both take the steps from here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Timing:
    """Seconds between the steps of a gesture, as a steady hand makes them."""

    step: float = 0.06  #: from one point of a slide to the next
    dwell: float = 0.03  #: how long a slid pebble closes the sensor of a point it passes
    bounce: float = 0.003  #: each half of one bounce of a sensor

    def __post_init__(self) -> None:
        if not 0 <= self.dwell <= self.step or self.bounce < 0:
            raise ValueError(f"gesture timing needs 0 <= dwell <= step and bounce >= 0: {self}")

    def slide(self, step: float | None, dwell: float | None) -> Timing:
        """This timing with a slide's own step or dwell, where one is given."""
        return Timing(self.step if step is None else step, self.dwell if dwell is None else dwell,
                      self.bounce)


HAND = Timing()


def passes(path: Sequence[str], timing: Timing = HAND) -> Iterator[tuple[float, str, bool]]:
    """A slide from `path[0]` to `path[-1]` after the pebble has left its start: (wait, point,
    closed) for each point passed over, which closes for `dwell` and opens again, `step`
    apart. The pebble lands `timing.step` after the last of them."""
    if len(path) < 2:
        raise ValueError("a slide needs a start and an end")
    for point in path[1:-1]:
        yield timing.step - timing.dwell, point, True
        yield timing.dwell, point, False


def bounces(n: int, timing: Timing = HAND) -> Iterator[tuple[float, bool]]:
    """`n` bounces of one sensor: (wait, flipped) steps, each flip and its return
    `timing.bounce` apart, ending where it was."""
    for _ in range(n):
        yield timing.bounce, True
        yield timing.bounce, False

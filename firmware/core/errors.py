"""The error a bad setting raises, from the configuration file or the command line alike."""

from __future__ import annotations


class ConfigError(ValueError):
    """A configuration value is wrong; the message names the key (`tracker.settle`)."""

    def __init__(self, key: str, problem: str, source: str = "") -> None:
        self.key = key
        self.problem = problem
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key}: {problem}")


def check_seconds(key: str, value: object, low: float, high: float) -> float:
    """A timing setting: a number of seconds in low..high, or a ConfigError naming the key
    and the one range, whatever was wrong with the value."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ConfigError(key, f"must be {low:g}..{high:g} seconds, not {value!r}")
    return float(value)


def check_count(key: str, value: object, low: int) -> int:
    """A whole-number setting of at least `low`, or a ConfigError naming the key."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(key, f"must be a whole number, not {value!r}")
    if value < low:
        raise ConfigError(key, f"must be at least {low}, not {value}")
    return value

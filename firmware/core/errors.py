"""The error a bad setting raises, from the configuration file or the command line alike."""

from __future__ import annotations


class ConfigError(ValueError):
    """A configuration value is wrong; the message names the key (`tracker.settle`)."""

    def __init__(self, key: str, problem: str, source: str = "") -> None:
        self.key = key
        self.problem = problem
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key}: {problem}")

"""The error a bad setting raises, from the configuration file or the command line alike."""

from __future__ import annotations

from navakankari.hal.words import N_, Phrase, Words, words_of


class ConfigError(ValueError):
    """A configuration value is wrong; the message names the key (`tracker.settle`). Made
    with `of` (or from a phrase), the problem is a message of the catalogs, so a command says
    it in the maker's language (`words`); as text, `problem` is its English."""

    def __init__(self, key: str, problem: str, source: str = "") -> None:
        self.key = key
        self.problem = problem
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key}: {problem}")

    @classmethod
    def of(cls, key: str, message: str, source: str = "", **places: object) -> "ConfigError":
        """The error of `key` whose problem is the catalog message `message` (marked N_)."""
        return cls(key, Phrase(message, **places), source)

    def again(self, key: str | None = None, source: str = "") -> "ConfigError":
        """The same problem named by another key or found in a file."""
        return ConfigError(self.key if key is None else key, self.problem, source or self.source)

    def problem_words(self, tr: Words) -> str:
        """The problem alone, in `tr`'s language where it is a message of the catalogs."""
        return words_of(self.problem, tr)

    def words(self, tr: Words) -> str:
        """The whole error, in `tr`'s language: where, the key, the problem."""
        where = f"{self.source}: " if self.source else ""
        return f"{where}{self.key}: {self.problem_words(tr)}"


def check_seconds(key: str, value: object, low: float, high: float) -> float:
    """A timing setting: a number of seconds in low..high, or a ConfigError naming the key
    and the one range, whatever was wrong with the value."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ConfigError.of(key, N_("must be {low}..{high} seconds, not {value}"),
                             low=f"{low:g}", high=f"{high:g}", value=repr(value))
    return float(value)


def check_count(key: str, value: object, low: int) -> int:
    """A whole-number setting of at least `low`, or a ConfigError naming the key."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError.of(key, N_("must be a whole number, not {value}"), value=repr(value))
    if value < low:
        raise ConfigError.of(key, N_("must be at least {low}, not {value}"), low=low, value=value)
    return value

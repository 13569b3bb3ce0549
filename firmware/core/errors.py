"""The error a bad setting raises, from the configuration file or the command line alike."""

from __future__ import annotations

from navakankari.firmware.i18n.notice import N_, Notice, Words


class ConfigError(ValueError):
    """A configuration value is wrong; the message names the key (`tracker.settle`). Made
    with `of`, the problem is a message of the catalogs (`notice`), so a command says it in
    the maker's language (`words`); `problem` is its English."""

    def __init__(self, key: str, problem: str, source: str = "", *,
                 notice: Notice | None = None) -> None:
        self.key = key
        self.problem = problem
        self.source = source
        self.notice = notice
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key}: {problem}")

    @classmethod
    def of(cls, key: str, message: str, source: str = "", **places: object) -> "ConfigError":
        """The error of `key` whose problem is the catalog message `message` (marked N_)."""
        notice = Notice.of(message, **places)
        return cls(key, str(notice), source, notice=notice)

    def again(self, key: str | None = None, source: str = "") -> "ConfigError":
        """The same problem named by another key or found in a file."""
        return ConfigError(self.key if key is None else key, self.problem,
                           source or self.source, notice=self.notice)

    def problem_words(self, tr: Words) -> str:
        """The problem alone, in `tr`'s language where it is a message of the catalogs."""
        return self.notice.words(tr) if self.notice is not None else self.problem

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

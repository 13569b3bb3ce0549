"""Narrow errors: text that is not notation, notation that names an illegal action, and a
computer player in another process that gave no usable answer."""


class RulesError(Exception):
    """Base of every error the rules engine raises on bad input: text, an action, a variant
    name. A player or a file that fails is not bad input (`PlayerError`, EndgameDataError)."""


class PlayerError(Exception):
    """A computer player in another process (an installed engine, the search process) gave
    no usable answer; the message names it and the position (`ExternalEngineError`,
    `SearchProcessError`)."""


class InvalidNotationError(RulesError, ValueError):
    """Text that cannot be read as an action, a position or a game record; says where."""


class IllegalActionError(RulesError, ValueError):
    """A well-formed action that the rules do not allow in the current position."""


class UnknownVariantError(RulesError, KeyError):
    """A variant name that is not a preset."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class GameOverError(RulesError, ValueError):
    """An action was asked of a player in a game that is already over."""

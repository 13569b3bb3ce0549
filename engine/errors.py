"""Narrow errors: text that is not notation, and notation that names an illegal action."""


class EngineError(Exception):
    """Base of every error the engine raises on bad input."""


class InvalidNotationError(EngineError, ValueError):
    """Text that cannot be read as an action, a position or a game record; says where."""


class IllegalActionError(EngineError, ValueError):
    """A well-formed action that the rules do not allow in the current position."""


class UnknownVariantError(EngineError, KeyError):
    """A variant name that is not a preset."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class GameOverError(EngineError, ValueError):
    """An action was asked of a player in a game that is already over."""

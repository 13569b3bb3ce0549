"""Narrow errors: text that is not notation, and notation that names an illegal action."""


class RulesError(Exception):
    """Base of every error the rules engine raises on bad input. (An installed engine that
    fails is an `ExternalEngineError`, in external.py.)"""


EngineError = RulesError
"""The former name of RulesError, kept so existing code keeps working. In python-chess an
EngineError is an external engine's failure, which would mislead a reader here."""


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

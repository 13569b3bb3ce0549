"""The teaching's words: every sentence a verdict's reason is said in, in one place so that
they can be translated.

A child or a grandparent reads these at the board: they name the points and say what the
other side does next ("b6 lets black close a mill at d7 next turn"), never a figure.
"""

from __future__ import annotations

from typing import Final

from .reasons import Quality, Reason, ReasonKind

#: Each class in a few words (the page's legend and the command's help).
QUALITY_WORDS: Final[dict[Quality, str]] = {
    Quality.KEEPS: "a good move",
    Quality.WORSE: "a weaker move",
    Quality.DROPS: "loses a pebble",
    Quality.LOSES: "loses the game",
}


def _when(turns: int) -> str:
    return "next turn" if turns <= 1 else f"in {turns} turns"


def reason_words(action: str, reason: Reason | None, quality: Quality = Quality.DROPS) -> str:
    """Why `action` is red, in one sentence: what the other side does after it, and when."""
    if reason is None:
        return f"{action} is {QUALITY_WORDS[quality]}"
    if quality is Quality.LOSES and reason.kind in (ReasonKind.MILL, ReasonKind.CAPTURE,
                                                    ReasonKind.DOUBLE):
        return f"{action} loses the game: " + _gain("it", reason)
    return _gain(action, reason)


def _gain(action: str, reason: Reason) -> str:
    by, when = reason.by, _when(reason.turns)
    if reason.kind is ReasonKind.MILL:
        at = f" at {reason.point}" if reason.point else ""
        take = f" and take your pebble on {reason.taken}" if reason.taken else ""
        if reason.broken:
            return (f"{action} takes the pebble out of your mill: {by} can then close a mill"
                    f"{at} {when}{take}")
        return f"{action} lets {by} close a mill{at} {when}{take}"
    if reason.kind is ReasonKind.CAPTURE:
        return f"{action} lets {by} jump and take your pebble on {reason.taken} {when}"
    if reason.kind is ReasonKind.DOUBLE:
        return (f"{action} lets {by} play {reason.action} {when} and make two mills at once: "
                "you can only stop one")
    if reason.kind is ReasonKind.BLOCKADE:
        return f"{action} lets {by} shut all your pebbles in {when}, and then you cannot move"
    how = " (the endgame tables are sure)" if reason.exact else ""
    return f"after {action}, {by} can win whatever you do{how}"


def blunder_words(action: str, reason: Reason | None, quality: Quality,
                  better: str | None) -> str:
    """A blunder's reason and the better move, as the board shows it after the move."""
    tail = f"; {better} was better" if better and better != action else ""
    return reason_words(action, reason, quality) + tail

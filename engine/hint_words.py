"""The teaching's words: every sentence a verdict's reason is said in, in one place so that
they can be translated.

A child or a grandparent reads these at the board: they name the points and say what the
other side does next ("b6 lets black close a mill at d7 next turn"), never a figure. Each
sentence is one message with named places (`{action}`, `{side}`), never pieced together
from translated parts; `tr` gives the language (English when none is given).
"""

from __future__ import annotations

from .game import Side
from .outcome import side_wording
from .reasons import Quality, Reason, ReasonKind
from .translator import ENGLISH, Translator


def quality_words(quality: Quality, tr: Translator = ENGLISH) -> str:
    """Each class in a few words (the page's legend and the command's help)."""
    if quality is Quality.KEEPS:
        return tr.gettext("a good move")
    if quality is Quality.WORSE:
        return tr.gettext("a weaker move")
    if quality is Quality.DROPS:
        return tr.gettext("loses a pebble")
    return tr.gettext("loses the game")


def side_words(side: Side, tr: Translator = ENGLISH) -> str:
    """`white` or `black` as a player is named in a sentence, in `tr`'s language."""
    return side_wording(side).words(tr)


def reason_words(action: str, reason: Reason | None, quality: Quality = Quality.DROPS,
                 tr: Translator = ENGLISH) -> str:
    """Why `action` is red, in one sentence: what the other side does after it, and when."""
    if reason is None:
        return _quality_sentence(action, quality, tr)
    why = _gain(action, reason, tr)
    if quality is Quality.LOSES and reason.kind in (ReasonKind.MILL, ReasonKind.CAPTURE,
                                                    ReasonKind.DOUBLE):
        return tr.gettext("{action} loses the game: {reason}").format(action=action, reason=why)
    return why


def _quality_sentence(action: str, quality: Quality, tr: Translator) -> str:
    if quality is Quality.KEEPS:
        text = tr.gettext("{action} is a good move")
    elif quality is Quality.WORSE:
        text = tr.gettext("{action} is a weaker move")
    elif quality is Quality.DROPS:
        text = tr.gettext("{action} loses a pebble")
    else:
        text = tr.gettext("{action} loses the game")
    return text.format(action=action)


def _gain(action: str, reason: Reason, tr: Translator) -> str:
    n = reason.turns
    places = {"action": action, "side": side_words(reason.by, tr), "turns": n,
              "point": reason.point, "taken": reason.taken, "threat": reason.action}
    if reason.kind is ReasonKind.MILL:
        text = _mill(reason, n, tr)
    elif reason.kind is ReasonKind.CAPTURE:
        text = tr.ngettext("{action} lets {side} jump and take your pebble on {taken} next turn",
                           "{action} lets {side} jump and take your pebble on {taken} in "
                           "{turns} turns", n)
    elif reason.kind is ReasonKind.DOUBLE:
        text = tr.ngettext("{action} lets {side} play {threat} next turn and make two mills at "
                           "once: you can only stop one",
                           "{action} lets {side} play {threat} in {turns} turns and make two "
                           "mills at once: you can only stop one", n)
    elif reason.kind is ReasonKind.BLOCKADE:
        text = tr.ngettext("{action} lets {side} shut all your pebbles in next turn, and then "
                           "you cannot move",
                           "{action} lets {side} shut all your pebbles in within {turns} turns, "
                           "and then you cannot move", n)
    elif reason.exact:
        text = tr.gettext("after {action}, {side} can win whatever you do (the endgame tables "
                          "are sure)")
    else:
        text = tr.gettext("after {action}, {side} can win whatever you do")
    return text.format(**places)


def _mill(reason: Reason, n: int, tr: Translator) -> str:
    """The mill the other side closes: where (if known), what it takes (if known), and
    whether the action broke the mover's own mill, each a sentence of its own."""
    at, take = reason.point is not None, reason.taken is not None
    if reason.broken:
        if at and take:
            return tr.ngettext(
                "{action} takes the pebble out of your mill: {side} can then close a mill at "
                "{point} next turn and take your pebble on {taken}",
                "{action} takes the pebble out of your mill: {side} can then close a mill at "
                "{point} in {turns} turns and take your pebble on {taken}", n)
        if at:
            return tr.ngettext(
                "{action} takes the pebble out of your mill: {side} can then close a mill at "
                "{point} next turn",
                "{action} takes the pebble out of your mill: {side} can then close a mill at "
                "{point} in {turns} turns", n)
        if take:
            return tr.ngettext(
                "{action} takes the pebble out of your mill: {side} can then close a mill next "
                "turn and take your pebble on {taken}",
                "{action} takes the pebble out of your mill: {side} can then close a mill in "
                "{turns} turns and take your pebble on {taken}", n)
        return tr.ngettext(
            "{action} takes the pebble out of your mill: {side} can then close a mill next turn",
            "{action} takes the pebble out of your mill: {side} can then close a mill in "
            "{turns} turns", n)
    if at and take:
        return tr.ngettext(
            "{action} lets {side} close a mill at {point} next turn and take your pebble on "
            "{taken}",
            "{action} lets {side} close a mill at {point} in {turns} turns and take your "
            "pebble on {taken}", n)
    if at:
        return tr.ngettext("{action} lets {side} close a mill at {point} next turn",
                           "{action} lets {side} close a mill at {point} in {turns} turns", n)
    if take:
        return tr.ngettext(
            "{action} lets {side} close a mill next turn and take your pebble on {taken}",
            "{action} lets {side} close a mill in {turns} turns and take your pebble on "
            "{taken}", n)
    return tr.ngettext("{action} lets {side} close a mill next turn",
                       "{action} lets {side} close a mill in {turns} turns", n)


def blunder_words(action: str, reason: Reason | None, quality: Quality,
                  better: str | None, tr: Translator = ENGLISH) -> str:
    """A blunder's reason and the better move, as the board shows it after the move."""
    why = reason_words(action, reason, quality, tr)
    if better and better != action:
        return tr.gettext("{reason}; {better} was better").format(reason=why, better=better)
    return why

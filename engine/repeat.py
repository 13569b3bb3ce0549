"""A game record's computer moves played again from its seed: do they repeat?

A record the board wrote keeps the seed its search followed (`Seed`), and names each side's
player. Each turn of a side played by a computer level is asked again of a search at that level
following that seed (`Player.follow_seed`), one player per level as the board keeps them, and
compared with the turn the record holds. Levels 1 to 4 (`CAPPED_LEVELS`) end their searches
at their depth caps, so their turns repeat; level 5 ends its hardest searches by time and level
6 all of them, and they are not checked. The adaptive computer is
checked at the level the record's `Level` tag says it played at.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import GameOverError, IllegalActionError, InvalidNotationError
from .player import CAPPED_LEVELS, Player
from .player_spec import PlayerSpec, PlayerSpecError
from .record import GameRecord, InvalidRecordError
from .outcome import side_wording
from .translator import N_
from .variants import start_game


@dataclass(frozen=True)
class Repeated:
    """What playing a record's computer turns again found: how many turns were checked and
    the first that came out otherwise (its number, side, the record's turn, the search's)."""

    checked: int
    differs: tuple[int, str, str, str] | None = None

    @property
    def repeats(self) -> bool:
        return self.differs is None


def repeatable_level(name: str, adaptive: str | None = None) -> int | None:
    """The search level a record's player name plays at, when its turns repeat from a seed:
    `computer:1`..`computer:4`, and the adaptive computer at the level of the record's `Level`
    tag (`adaptive`); None for anyone else (a person, an engine, levels 5 and 6, an adaptive computer
    whose level the record does not say)."""
    try:
        spec = PlayerSpec.parse(name)
    except PlayerSpecError:
        return None
    level = spec.level
    if spec.adaptive:
        if adaptive is None or not adaptive.isascii() or not adaptive.isdigit():
            return None
        level = int(adaptive)
    if spec.kind != "computer" or not 1 <= level <= CAPPED_LEVELS:
        return None
    return level


def repeat_computer(record: GameRecord) -> Repeated:
    """Play the record's moves, asking each computer turn again of the seeded search (see the
    module); InvalidRecordError for a record without a seed or whose moves do not play."""
    if record.seed is None:
        raise InvalidRecordError(N_("the record keeps no Seed tag: its computer turns cannot "
                                    "be played again"))
    adaptive = dict(record.tags).get("Level")
    levels = {"white": repeatable_level(record.white, adaptive),
              "black": repeatable_level(record.black, adaptive)}
    players: dict[int, Player] = {}
    game = start_game(record.rules, record.start)
    checked = 0
    for number, token in enumerate(record.moves, start=1):
        side = str(game.turn)
        level = levels[side]
        if level is not None:
            player = players.setdefault(level, Player(level))
            probe = game.copy()
            chosen: list[str] = []
            while probe.outcome() is None and str(probe.turn) == side and \
                    (not chosen or probe.pending_removals):
                player.follow_seed(record.seed, probe)
                action = player.choose(probe)
                probe.push(action)
                chosen.append(action.text)
        before = len(game.history)
        try:
            game.play(token)
        except (InvalidNotationError, IllegalActionError, GameOverError) as exc:
            raise InvalidRecordError(N_("move {token} ({side}): {problem}"), token=token,
                                     side=side_wording(game.turn), problem=exc) from None
        if level is not None:
            checked += 1
            played = [a.text for a in game.history[before:]]
            if chosen != played:
                return Repeated(checked, (number, side, " ".join(played), " ".join(chosen)))
    return Repeated(checked)

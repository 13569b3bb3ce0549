"""Three against four: the shipped database is the solver's, its verdicts follow from the
engine's own move generator, and the search and the hints use it."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from navakankari.engine import endgame
from navakankari.engine.endgame_solve34 import build
from navakankari.engine.presets import preset
from navakankari.engine.search import Searcher
from navakankari.engine.variants import new_game

NMM = preset("nine-mens-morris")


@pytest.fixture(scope="module")
def table() -> endgame.EndgameTable:
    return endgame.EndgameTable(three_four=True)


def _game(mover: int, opponent: int):  # type: ignore[no-untyped-def]
    game = new_game(NMM)
    game._set_state(mover, opponent, (0, 0), 0, 0, 0, 1)
    return game


def _value(table, game) -> int | None:  # type: ignore[no-untyped-def]
    """0 a draw, d a win in d, -d a loss in d (also where the game is over by a count)."""
    bb, s = game._bb, game._side
    if bb[s].bit_count() < 3:
        return -0.5  # lost, no action left  # type: ignore[return-value]
    if bb[s ^ 1].bit_count() < 3:
        return 0.5  # type: ignore[return-value]
    return table.result(game)


def _expected(table, game) -> int:  # type: ignore[no-untyped-def]
    """The best the mover gets by one action (and its removal), from its children's values."""
    best = None
    for action in game.legal_actions():
        game.push(action)
        if game.pending_removals:
            outcomes = []
            for removal in game.legal_actions():
                game.push(removal)
                outcomes.append(_flip(_value(table, game), 2))
                game.pop()
            option = max(outcomes, key=_preference)
        else:
            option = _flip(_value(table, game), 1)
        game.pop()
        if best is None or _preference(option) > _preference(best):
            best = option
    assert best is not None
    return best


def _flip(child: float | None, actions: int) -> int:
    """A child's value for its mover, as the value of the action(s) leading to it."""
    assert child is not None
    if child == 0:
        return 0
    if child in (0.5, -0.5):  # the game ended by the count
        return actions if child < 0 else -actions
    d = abs(int(child)) + actions
    return d if child < 0 else -d


def _preference(value: int) -> tuple[int, int]:
    if value > 0:
        return (2, -value)  # a win, the sooner the better
    if value == 0:
        return (1, 0)
    return (0, -value)  # a loss, the later the better


def _positions(data: bytes, mine: int, rnd: random.Random, count: int, decided: bool):  # type: ignore[no-untyped-def]
    other = 7 - mine
    movers = [sum(1 << p for p in c) for c in combinations(range(24), mine)]
    opponents = [c for c in combinations(range(24 - mine), other)]
    per = len(opponents)
    picked = 0
    while picked < count:
        i = rnd.randrange(len(data))
        if decided and not data[i]:
            continue
        mover = movers[i // per]
        free = [p for p in range(24) if not mover >> p & 1]
        opponent = sum(1 << free[j] for j in opponents[i % per])
        assert endgame.index34(mover, opponent) == i
        picked += 1
        yield mover, opponent


@pytest.mark.parametrize("mine", [3, 4])
@pytest.mark.parametrize("decided", [True, False])
def test_every_verdict_follows_from_the_engines_moves(table, mine: int, decided: bool) -> None:
    """Retrograde analysis checked forward: each position's result is the best its legal
    actions (played by the engine, removals included) lead to, by the databases' own
    results of the positions after them."""
    rnd = random.Random(mine * 10 + decided)
    data = table.tables34[0 if mine == 3 else 1]
    checked = 0
    for mover, opponent in _positions(data, mine, rnd, 150, decided):
        game = _game(mover, opponent)
        if game.outcome() is not None:
            continue
        assert table.result(game) == _expected(table, game), game.position()
        checked += 1
    assert checked >= 140


def test_the_shipped_file_is_what_the_solver_makes(tmp_path) -> None:
    solution, size = build(tmp_path / "3v4.bin")
    assert (tmp_path / "3v4.bin").read_bytes() == endgame.data_path(endgame.FILENAME34).read_bytes()
    assert solution.counts == {"3v4": (1_629_336, 0, 10_484_304),
                               "4v3": (1_201_560, 48_720, 10_863_360)}
    assert size < 1_100_000


def test_a_damaged_file_is_one_clear_error(tmp_path) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"NKEG-3v4-stepping\nnot zlib")
    with pytest.raises(endgame.EndgameDataError, match="damaged"):
        endgame.load34(bad)
    bad.write_bytes(b"something else")
    with pytest.raises(endgame.EndgameDataError, match="header"):
        endgame.load34(bad)
    with pytest.raises(endgame.EndgameDataError, match="build-endgame"):
        endgame.load34(tmp_path / "missing.bin")


@pytest.mark.parametrize("mine", [3, 4])
def test_the_search_plays_the_databases_result(table, mine: int) -> None:
    """A position the database calls a win or a loss: the search scores it exactly, the
    quickest win or the longest defence, from one ply of lookups."""
    rnd = random.Random(mine)
    checked = 0
    for mover, opponent in _positions(table.tables34[0 if mine == 3 else 1], mine, rnd, 20,
                                      True):
        game = _game(mover, opponent)
        result = table.result(game)
        assert result
        found = Searcher().search(game, max_depth=4)
        assert found.score == (1_000_000 - result if result > 0 else -(1_000_000 + result))
        checked += 1
    assert checked == 20

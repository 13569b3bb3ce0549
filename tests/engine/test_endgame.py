"""The three-against-three database: its counts, its file, its agreement with the rules
engine's own moves, and the search that plays by it."""

from __future__ import annotations

import random
import zlib
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from navakankari.engine import endgame
from navakankari.engine.boards import BOARDS
from navakankari.engine.endgame import EndgameDataError, EndgameTable, index, why_not
from navakankari.engine.game import Side
from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.rules import AllInMills, Flying, Removals
from navakankari.engine.search import WIN, Searcher, format_score
from navakankari.engine.variants import game_from_position
from navakankari.firmware.cli import main as cli
from search_helpers import morris_fen

NMM = preset("nine-mens-morris")
POINTS = BOARDS["morris"].points


def _table() -> EndgameTable:
    return endgame.shared()


def _names(mask: int) -> str:
    return " ".join(POINTS[p] for p in range(24) if mask >> p & 1)


def _game(white: int, black: int, side: str = "w", quiet: int = 0):
    """A nine men's morris position, with `quiet` moves made since the last removal."""
    fen = morris_fen(_names(white), _names(black), side)
    fen = fen[:-len("0 1")] + f"{quiet} 1"
    return game_from_position(NMM, fen)


def _mask(points) -> int:
    return sum(1 << p for p in points)


def _random_position(rng: random.Random) -> tuple[int, int]:
    points = rng.sample(range(24), 6)
    return _mask(points[:3]), _mask(points[3:])


def _value(d: int) -> tuple[int, int]:
    """A distance as a comparable value for the side to move: wins first (quickest), then
    draws, then losses (longest)."""
    if d == 0:
        return (1, 0)
    return (2, -d) if d % 2 == 0 else (0, d)


def _expected(game, table: EndgameTable) -> int:
    """The distance the engine's own legal actions give: the best successor, one action on."""
    best: int | None = None
    mover = game.turn
    for action in game.legal_actions():
        game.push(action)
        if game.pending_removals:
            removals = game.legal_actions()
            assert removals
            for removal in removals:  # any removal leaves two: the mover has won
                game.push(removal)
                outcome = game.outcome()
                assert outcome is not None and outcome.winner is mover
                game.pop()
            d = 2
        else:
            assert game.turn is mover.other and game.outcome() is None
            child = table.probe(game)
            assert child is not None
            d = 0 if child == 0 else child + 1
        game.pop()
        if best is None or _value(d) > _value(best):
            best = d
    assert best is not None
    return best


def test_counts_for_the_side_to_move():
    counts = Counter(_table().table)
    wins = sum(n for d, n in counts.items() if d and d % 2 == 0)
    losses = sum(n for d, n in counts.items() if d % 2)
    assert (wins, losses, counts[0]) == (2_232_160, 455_648, 4_112)
    assert wins + losses + counts[0] == endgame.POSITIONS == 2_691_920
    assert max(counts) == 27 and counts[2] == 1_056_096


def test_the_build_command_rebuilds_the_shipped_file_byte_for_byte(tmp_path, capsys):
    out = tmp_path / "rebuilt.bin"
    assert cli.main(["build-endgame", "--out", str(out)]) == 0
    assert out.read_bytes() == endgame.data_path().read_bytes()
    text = capsys.readouterr().out
    assert "2,232,160 wins, 455,648 losses, 4,112 draws" in text and "bytes" in text


def test_the_build_command_says_when_it_cannot_write(tmp_path, capsys):
    assert cli.main(["build-endgame", "--out", str(tmp_path / "no" / "such" / "x.bin")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_the_file_format_round_trips_and_refuses_bad_data(tmp_path):
    table = _table().table
    data = endgame.encode(table)
    assert endgame.decode(data) == table
    path = tmp_path / "t.bin"
    path.write_bytes(data)
    assert EndgameTable(path).distance(0b111, 0b111000) == table[index(0b111, 0b111000)]
    with pytest.raises(EndgameDataError, match="header"):
        endgame.decode(b"something else")
    with pytest.raises(EndgameDataError, match="damaged"):
        endgame.decode(data[:1000])
    with pytest.raises(EndgameDataError, match="positions"):
        endgame.decode(endgame.MAGIC + zlib.compress(b"\0" * 10))
    with pytest.raises(EndgameDataError, match="build-endgame"):
        endgame.load(tmp_path / "missing.bin")
    with pytest.raises(ValueError):
        endgame.encode(b"\0" * 10)


def test_the_file_is_read_on_the_first_lookup_only(tmp_path):
    path = tmp_path / "t.bin"
    path.write_bytes(endgame.data_path().read_bytes())
    table = EndgameTable(path)
    assert table._table is None
    table.distance(0b111, 0b111000)
    path.unlink()  # read once: lookups go on without the file
    assert table.distance(0b111000, 0b111) in range(28)


def test_index_numbers_every_opponent_set_of_a_mover_once():
    for mover in (_mask((0, 1, 2)), _mask((5, 11, 23)), _mask((21, 22, 23))):
        free = [p for p in range(24) if not mover >> p & 1]
        got = sorted(index(mover, _mask(c)) for c in combinations(free, 3))
        base = got[0]
        assert base % 1330 == 0 and got == list(range(base, base + 1330))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 23), min_size=6, max_size=6, unique=True),
       st.sampled_from(["w", "b"]))
def test_a_position_is_worth_its_best_action(points, side):
    white, black = _mask(points[:3]), _mask(points[3:])
    game = _game(white, black, side)
    table = _table()
    assert table.probe(game) == _expected(game, table)


def test_a_seeded_sample_is_worth_its_best_action():
    rng = random.Random(7)
    table = _table()
    seen = Counter()
    for _ in range(1500):
        white, black = _random_position(rng)
        game = _game(white, black)
        d = table.probe(game)
        assert d == _expected(game, table)
        seen[0 if d == 0 else 2 - d % 2] += 1
    assert seen[2] and seen[1]  # wins and losses both met


def test_short_results_agree_with_the_search_without_the_database():
    rng = random.Random(11)
    table = _table()
    found = {2: 0, 3: 0}
    while min(found.values()) < 2:
        white, black = _random_position(rng)
        d = table.distance(white, black)
        if d not in found or found[d] >= 2:
            continue
        found[d] += 1
        info = Searcher(endgame=False).search(_game(white, black), max_depth=d - 1)
        assert info.score == (WIN - d if d % 2 == 0 else -(WIN - d))


def test_which_rules_the_database_holds_for():
    holds = {name for name, rules in PRESETS.items() if why_not(rules) is None}
    assert holds == {"nine-mens-morris", "lasker"}
    assert "board" in why_not(preset("twelve-mens-morris"))
    assert "board" in why_not(preset("morabaraba"))
    assert "fly" in why_not(preset("navakankari"))
    assert "safe" in why_not(preset("navakankari-flying"))
    assert "limited" in why_not(preset("navakankari-flying").replace(all_in_mills=AllInMills.ANY))
    assert "re-formed" in why_not(NMM.replace(no_immediate_reform=True))
    assert "lose" in why_not(NMM.replace(lose_below=4))
    assert why_not(NMM.replace(flying=Flying.BOTH, removals=Removals.ONE_PER_MILL)) is None
    assert endgame.table_for(preset("navakankari")) is None
    # The longest result (27 actions, 26 of them moves) fits within every such preset's
    # quiet-move draw, so from a capture on the database's results are the game's.
    longest = max(_table().table)
    for name in holds:
        limit = PRESETS[name].quiet_move_limit
        assert limit is None or longest - 1 < limit
    assert endgame.table_for(NMM) is endgame.shared(True)
    both_fly = NMM.replace(flying=Flying.BOTH)
    assert endgame.table_for(both_fly) is endgame.shared(False)
    assert "step" in endgame.why_not34(both_fly)


def test_the_probe_leaves_what_the_table_does_not_hold():
    table = _table()
    rng = random.Random(5)
    white, black = _random_position(rng)
    assert table.probe(_game(white, black)) is not None
    four = _game(white | (1 << next(p for p in range(24) if not (white | black) >> p & 1)), black)
    assert table.probe(four) is None
    fen = morris_fen(_names(white), _names(black), hands=(1, 1))
    assert table.probe(game_from_position(NMM, fen)) is None


def test_the_quiet_move_limit_keeps_a_long_result_out():
    table = _table()
    rng = random.Random(9)
    while True:
        white, black = _random_position(rng)
        d = table.distance(white, black)
        if d >= 10:
            break
    limit = NMM.quiet_move_limit
    assert table.probe(_game(white, black, quiet=limit - d)) == d  # d - 1 moves still fit
    assert table.probe(_game(white, black, quiet=limit - d + 1)) is None
    assert table.probe(_game(white, black, quiet=limit - 1)) is None


def _won_positions(rng: random.Random, n: int, least: int) -> list[tuple[int, int, int]]:
    out = []
    table = _table()
    while len(out) < n:
        white, black = _random_position(rng)
        d = table.distance(white, black)
        if d >= least and d % 2 == 0:
            out.append((white, black, d))
    return out


def _longest_defence(game, table: EndgameTable):
    """The defender's action after which the attacker's win is slowest."""
    def attackers_value(action) -> tuple[int, int]:
        game.push(action)
        assert not game.pending_removals  # a lost side closes no mill
        d = table.probe(game)
        game.pop()
        return _value(d)

    return min(game.legal_actions(), key=attackers_value)


@pytest.mark.parametrize("defence", ["random", "longest"])
def test_the_search_wins_within_the_stored_distance(defence):
    rng = random.Random(13)
    table = _table()
    for white, black, d in _won_positions(rng, 3, 14):
        game = _game(white, black)
        searcher = Searcher()
        plies = 0
        while game.outcome() is None:
            if game.turn is Side.WHITE:
                left = table.probe(game)
                info = searcher.search(game, max_depth=4)
                if left is not None:  # not while a removal is owed
                    assert format_score(info.score) == f"win in {left}"
                    assert left <= d - plies
                game.push(info.action)
            elif defence == "random":
                game.push(rng.choice(game.legal_actions()))
            else:
                game.push(_longest_defence(game, table))
            plies += 1
        assert game.outcome().winner is Side.WHITE
        assert plies <= d
        if defence == "longest":
            assert plies == d


def test_a_capture_into_three_against_three_is_scored_exactly():
    # White flies with three, black has four: white closes a1-d1-g1 and takes, 3 against 3.
    game = game_from_position(NMM, morris_fen("a1 d1 b4", "a7 d7 f4 f6"))
    table = _table()
    info = Searcher().search(game, max_depth=1, all_root_scores=True)
    scores = {str(a): s for a, s in info.root_scores}
    closing = [a for a in game.legal_actions() if a.text == "b4-g1"]
    assert closing
    for action in closing:
        game.push(action)
        if not game.pending_removals:
            game.pop()
            continue
        best = None
        for removal in game.legal_actions():
            game.push(removal)
            d = table.probe(game)  # black to move, three against three
            game.pop()
            v = 0 if d == 0 else (-(WIN - 2 - d) if d % 2 == 0 else WIN - 2 - d)
            best = v if best is None else max(best, v)
        game.pop()
        assert scores[str(action)] == best


def test_the_search_puts_up_the_longest_defence():
    rng = random.Random(17)
    table = _table()
    tried = 0
    while tried < 5:
        white, black = _random_position(rng)
        d = table.distance(white, black)
        if d < 9 or d % 2 == 0:
            continue
        tried += 1
        game = _game(white, black)
        info = Searcher().search(game, max_depth=6)
        assert format_score(info.score) == f"loss in {d}"
        game.push(info.action)
        assert table.probe(game) == d - 1

"""The game record: written, read back and replayed to the same game, for every variant;
Sanmill's way of writing accepted; hostile text refused with the line or move named."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from navakankari.engine.presets import PRESETS, preset
from navakankari.engine.record import (
    MAX_NESTING,
    MAX_RECORD_CHARS,
    GameRecord,
    InvalidRecordError,
    format_record,
    parse_record,
    record_of,
    replay_record,
)
from navakankari.engine.rules import Flying, Removals
from navakankari.engine.player import SEEDS
from navakankari.engine.variants import game_from_position, new_game

VARIANTS = sorted(PRESETS)
names = st.text(st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters="\n\r"),
                max_size=30)


def random_game(variant: str, seed: int, plies: int, rules=None):
    game = new_game(rules or preset(variant))
    rnd = random.Random(seed)
    while len(game.history) < plies and not game.is_over():
        game.push(rnd.choice(game.legal_actions()))
    return game


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6),
       plies=st.integers(0, 300), white=names, black=names, site=names,
       search_seed=st.none() | st.integers(0, SEEDS - 1))
def test_every_game_round_trips(variant, seed, plies, white, black, site, search_seed):
    game = random_game(variant, seed, plies)
    record = record_of(game, white=white, black=black, site=site, date="2026.11.27",
                       seed=search_seed)
    text = format_record(record)
    again = parse_record(text)
    assert again == record
    assert format_record(again) == text
    played = replay_record(again)
    assert [a.text for a in played.history] == [a.text for a in game.history]
    assert played.position() == game.position()


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from([v for v in VARIANTS if PRESETS[v].game == "morris"]),
       seed=st.integers(0, 10**6), before=st.integers(1, 60), after=st.integers(0, 60))
def test_a_game_from_a_set_up_position_round_trips(variant, seed, before, after):
    """Black to act first is numbered `1...`; the FEN tag carries the start."""
    start_game = random_game(variant, seed, before)
    start = start_game.position()
    game = game_from_position(preset(variant), start)
    rnd = random.Random(seed + 1)
    while len(game.history) < after and not game.is_over():
        game.push(rnd.choice(game.legal_actions()))
    record = record_of(game, start=start)
    text = format_record(record)
    assert f'[FEN "{start}"]' in text and '[SetUp "1"]' in text
    if game.history and start_game.turn.name == "BLACK":
        assert "\n1... " in text
    again = parse_record(text)
    assert again == record
    assert replay_record(again).position() == game.position()


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), pieces=st.integers(3, 12),
       flying=st.sampled_from(list(Flying)), removals=st.sampled_from(list(Removals)),
       limit=st.one_of(st.none(), st.integers(0, 5)), repetition=st.one_of(st.none(), st.integers(2, 5)),
       lasker=st.booleans())
def test_changed_rules_round_trip(variant, pieces, flying, removals, limit, repetition, lasker):
    base = preset(variant)
    changes = dict(flying=flying, removals=removals, mill_capture_limit=limit,
                   repetition_draw=repetition)
    if base.game == "morris":
        changes.update(pieces=pieces, move_in_placement=lasker)
    rules = base.replace(**changes)
    record = GameRecord(rules=rules, white="a", black="b")
    text = format_record(record)
    assert ("[Rules " in text) == (rules != base)
    assert parse_record(text).rules == rules


def test_the_record_reads_as_a_person_expects():
    game = new_game("navakankari")
    game.play_record("d6 f4 d2 b4 d7 f2")
    text = format_record(record_of(game, white="hand", black="computer:3", site="Grandma",
                                   date="2026.11.27", event="Navakankari"))
    assert text == (
        '[Event "Navakankari"]\n[Site "Grandma"]\n[Date "2026.11.27"]\n[Round "-"]\n'
        '[White "hand"]\n[Black "computer:3"]\n[Result "*"]\n[Variant "navakankari"]\n'
        "\n1. d6 f4\n2. d2 b4\n3. d7 f2\n*\n")


def test_removals_join_their_move_and_the_result_comes_from_the_rules():
    game = new_game("nine-mens-morris")
    game.play_record("a7 b6 d7 f6 g7xb6")
    record = record_of(game)
    assert record.moves[-1] == "g7xb6"
    assert "3. g7xb6" in format_record(record)
    finished = random_game("six-mens-morris", 3, 500)
    assert finished.is_over()
    text = format_record(record_of(finished))
    outcome = finished.outcome()
    assert f'[Termination "{outcome.reason.value}"]' in text
    assert text.rstrip().endswith({None: "1/2-1/2"}.get(outcome.winner,
                                  "1-0" if outcome.winner == 0 else "0-1"))


def test_sanmills_way_of_writing_is_read():
    """Sanmill copies a game as tag pairs with CRLF, `1.    d6    f4` and comments, glyphs
    and variations; no Variant tag means nine men's morris."""
    text = ('[FEN "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"]\r\n'
            '[SetUp "1"]\r\n\r\n'
            "1.    d6 {a good start}   f4!?\r\n2.    d2 $2 (2. b4 b6) b4\r\n3. d7   f2 ; rest\r\n")
    record = parse_record(text)
    assert record.rules.name == "nine-mens-morris"
    assert record.moves == ("d6", "f4", "d2", "b4", "d7", "f2")
    game = replay_record(record)
    assert game.record() == "d6 f4 d2 b4 d7 f2"


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("[White hand]\n\n1. d6", "a tag pair is written"),
    ('[White "a"]\n[White "b"]\n', "given twice"),
    ('[Variant "chess"]\n\n1. e4', "no variant here"),
    ('[Variant "navakankari"]\n[Rules "pieces=many"]\n', "pieces=many"),
    ('[Variant "navakankari"]\n[Rules "wings=2"]\n', "'wings=2' is not option=value"),
    ('[Result "2-0"]\n', "Result tag must be one of"),
    ('[Result "1-0"]\n\n1. d6 f4 0-1', "the moves end in 0-1"),
    ("1. d6 f4 *\n2. d2", "follows the result"),
    ('[Variant "navakankari"]\n\n1. d6 <script>', "line 3: '<script>' is not a move"),
    ("1. d6 (f4 (d2", "ends inside"),
    ("1. d6 ) f4", "closes no variation"),
    ("1. d6 {f4", "ends inside a comment"),
    ('[FEN "not a position"]\n[SetUp "1"]\n', "the FEN tag"),
    ('[Variant "nine-mens-morris"]\n[White "a\\"]\n', "a tag pair is written"),
    ('[Seed "-1"]\n', "the Seed tag must be a whole number"),
    ('[Seed "12e3"]\n', "the Seed tag must be a whole number"),
    (f'[Seed "{2 ** 63}"]\n', "the Seed tag must be a whole number"),
])
def test_bad_records_say_what_is_wrong(text, words):
    with pytest.raises(InvalidRecordError, match=None) as info:
        parse_record(text)
    assert words in str(info.value)


def test_hostile_sizes_are_refused_before_reading():
    with pytest.raises(InvalidRecordError, match="at most"):
        parse_record("1. d6 " * (MAX_RECORD_CHARS // 6 + 1))
    with pytest.raises(InvalidRecordError, match="nest more than"):
        parse_record("1. d6 " + "(" * (MAX_NESTING + 1))
    with pytest.raises(InvalidRecordError, match="at most 64 tags"):
        parse_record("".join(f'[T{k} "v"]\n' for k in range(65)))
    with pytest.raises(InvalidRecordError, match="characters"):
        parse_record(f'[Site "{"x" * 1001}"]\n')


def test_an_illegal_move_is_named_by_its_number_and_side():
    record = parse_record('[Variant "navakankari"]\n\n1. d6 f4\n2. d6 b4\n')
    with pytest.raises(InvalidRecordError, match=r"move 2 \(white, d6\)"):
        replay_record(record)
    with pytest.raises(InvalidRecordError, match=r"move 1 \(black, zz9\)"):
        replay_record(parse_record("1. d6 zz9"))


def test_a_result_the_moves_contradict_is_an_error():
    finished = random_game("six-mens-morris", 3, 500)
    text = format_record(record_of(finished))
    outcome = finished.outcome()
    wrong = "1-0" if outcome.winner != 0 else "0-1"
    right = {None: "1/2-1/2", 0: "1-0", 1: "0-1"}[outcome.winner]
    forged = text.replace(f'[Result "{right}"]', f'[Result "{wrong}"]').replace(
        f"\n{right}\n", f"\n{wrong}\n")
    with pytest.raises(InvalidRecordError, match="but its moves end in"):
        replay_record(parse_record(forged))
    # A resignation: the rules see no end, so any result stands.
    game = random_game("navakankari", 5, 20)
    resigned = parse_record(format_record(record_of(game, result="0-1",
                                                    termination="resigned")))
    assert replay_record(resigned).record() == game.record()
    assert resigned.termination == "resigned"


def test_other_tags_are_kept_in_order():
    text = '[Event "x"]\n[Annotator "Ravi"]\n[PlyCount "2"]\n\n1. d6 f4\n*\n'
    record = parse_record(text)
    assert record.tags == (("Annotator", "Ravi"), ("PlyCount", "2"))
    assert parse_record(format_record(record)) == record


def test_tag_values_escape_quotes_and_backslashes():
    record = GameRecord(rules=preset("lasker"), site='the "big" \\ board')
    text = format_record(record)
    assert '[Site "the \\"big\\" \\\\ board"]' in text
    assert parse_record(text) == record
    with pytest.raises(InvalidRecordError, match="line break"):
        format_record(GameRecord(rules=preset("lasker"), site="two\nlines"))


def test_the_readmes_example_record_reads_and_plays():
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Keeping a game", 1)[1]
    example = section.split("```\n", 2)[1]
    record = parse_record(example)
    assert (record.site, record.result, record.termination) == ("Grandma", "0-1", "resigned")
    assert replay_record(record).record() == "d6 f4 d2 b4 d7 f2"
    assert format_record(record) == example

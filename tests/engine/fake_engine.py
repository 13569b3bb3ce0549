"""A small engine that speaks Sanmill's console protocol, for the adapter's tests.

It plays nine men's morris with the project's own rules and answers with the first legal
action, or misbehaves as `--mode` says:
  legal    answer at once, then print analysis text like Sanmill's (a stale `Fen:` line)
  slow     answer only when told `stop`
  hang     never answer `go`, ignore `stop`
  die      exit at `go`
  illegal  answer a placement on an occupied point (or any action that is not legal)
  garbage  answer `bestmove zz9`
  draw     answer `bestmove draw` unless the position came as `position fen`
  drift    ignore the last move of `position ... moves` (as Sanmill does with an illegal one)
  mute     print no `Fen:` line for `d`
  garbled  answer the first `d` with statistics inside the `Fen:` line (a race seen in
           Sanmill's output), the next ones right
A won game shows phase `o` in its position string, and `go` answers `bestmove draw` after
a drawn one, as Sanmill does after a repetition.
`--log FILE` appends every line received, so tests can see what was sent.
"""

from __future__ import annotations

import argparse
import sys

from navakankari.engine.presets import preset
from navakankari.engine.variants import game_from_position, new_game

RULES = preset("nine-mens-morris")


def say(*lines: str) -> None:
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def set_position(words: list[str], drift: bool):  # type: ignore[no-untyped-def]
    if words[1] == "startpos":
        game, rest = new_game(RULES), words[2:]
    else:
        end = words.index("moves") if "moves" in words else len(words)
        game, rest = game_from_position(RULES, " ".join(words[2:end])), words[end:]
    moves = rest[1:] if rest[:1] == ["moves"] else []
    if drift:
        moves = moves[:-1]
    for text in moves:
        try:
            game.play(text)
        except ValueError:
            break  # like Sanmill: stop quietly at the first illegal move
    return game


def answer(game, mode: str) -> str:  # type: ignore[no-untyped-def]
    legal = game.legal_actions()
    if mode == "garbage":
        return "zz9"
    if mode == "illegal":
        texts = {a.text for a in legal}
        taken = [p for p in game.board.points if game.colour_at(game.board.index(p)) is not None]
        for text in [*taken, "xa1", "a1-d7", "d5"]:
            if text not in texts:
                return text
    return legal[0].text


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="legal")
    parser.add_argument("--log")
    args = parser.parse_args()
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    game = new_game(RULES)
    from_fen = False
    searching = False
    garbled = False
    for line in sys.stdin:
        line = line.strip()
        if log is not None:
            log.write(line + "\n")
            log.flush()
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            say("id name Fake", "option name SkillLevel type spin default 1 min 0 max 30", "uciok")
        elif command == "isready":
            say("readyok")
        elif command == "position":
            game = set_position(words, args.mode == "drift")
            from_fen = words[1] == "fen"
        elif command == "d":
            fields = game.position().split()
            if game.outcome() is not None and game.outcome().winner is not None:
                fields[2] = "o"  # Sanmill's phase for a won game
            if args.mode == "garbled" and not garbled:
                garbled = True
                say("", "  some board drawing", "Fen: 0.00% : 0.00% : 0.00%", "Key: 0")
            elif args.mode != "mute":
                say("", "  some board drawing", f"Fen: {' '.join(fields)}", "Key: 0")
        elif command == "go":
            if args.mode == "die":
                return 3
            if (args.mode == "draw" and not from_fen) or (
                    game.outcome() is not None and game.outcome().winner is None):
                say("bestmove draw")
            elif game.outcome() is not None:
                say("bestmove none")
            elif args.mode in ("slow", "hang"):
                searching = True
            else:
                stale = game.position()
                say(f"info score 0 bestmove {answer(game, args.mode)}", "Depth: 1", "",
                    f"Fen: {stale}", "Placing phase")
        elif command == "stop":
            if searching and args.mode == "slow":
                say("info score 0 bestmove " + answer(game, args.mode))
            searching = args.mode == "hang" and searching
        elif command == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the board should show after a game's actions: run by checks.py on the host, with
this tree's engine.

    python position.py VARIANT [ACTION ...]

prints {"occupied": [...], "turn": "white", "legal": [...], "over": false} as JSON.
"""

from __future__ import annotations

import json
import sys

from navakankari.engine import new_game


def main(argv: list[str]) -> int:
    game = new_game(argv[0])
    if argv[1:]:
        game.play_record(" ".join(argv[1:]))
    print(json.dumps({"occupied": sorted(game.board.names(game.occupancy)),
                      "turn": str(game.turn), "over": game.outcome() is not None,
                      "legal": [a.text for a in game.legal_actions()]}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

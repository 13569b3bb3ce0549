"""The rules engine: boards, rule sets, games, notation and the computer player.

Pure Python, standard library only: the engine knows no hardware.
"""

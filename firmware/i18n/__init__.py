"""The message catalogs and the languages the board speaks (catalogs.py)."""

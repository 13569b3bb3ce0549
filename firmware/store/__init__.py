"""The game store (SQLite) and how a damaged one is set aside so the board still starts."""

"""The asyncio loop that owns a board, its configuration and its systemd notifications."""

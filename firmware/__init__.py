"""What runs on the board: tracker, lights, session, store, daemon, web companion and CLI."""

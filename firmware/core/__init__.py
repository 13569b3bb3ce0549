"""The board's mind, pure and time-injected: sensing, the tracker, the session, the menu,
the lights and their words. Knows no daemon, page, command line or systemd."""

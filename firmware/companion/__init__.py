"""The web companion: the page, its live updates, the guards in front of it and the
client the command line uses to talk to a running board."""

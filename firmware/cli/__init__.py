"""The `navakankari` command: one module per group of subcommands, and the applications
(match, terminal game, benchmarks, replay) they run."""

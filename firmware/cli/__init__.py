"""The `navakankari` command: one module per group of subcommands, and the applications
(match, terminal game, replay) they run; the benchmarks are in tools/."""

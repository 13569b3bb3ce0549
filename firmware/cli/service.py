"""`navakankari service` (the systemd unit: install, uninstall, status) and `doctor` (this
Pi against the board's wiring profile)."""

from __future__ import annotations

import argparse
import sys

from .args import Commands, error_words, language_option, words


def cmd_service(args: argparse.Namespace) -> int:
    import subprocess
    from pathlib import Path

    from navakankari.hal.profile import ProfileError, load_profile

    from ..core.errors import ConfigError
    from ..daemon.config import Config, load_config
    from ..system.service import (
    CONFIG_DIR,
    UNIT_NAME,
    Network,
    before_install,
    install_steps,
    run_steps,
    uninstall_steps,
    unit_needs_of,
)

    if args.action == "status":
        if args.dry_run:
            print(f"systemctl status {UNIT_NAME} --no-pager")
            return 0
        return subprocess.run(["systemctl", "status", UNIT_NAME, "--no-pager"], check=False).returncode
    if args.action == "uninstall":
        return run_steps(uninstall_steps(), dry_run=args.dry_run)
    # The unit runs the configuration it was installed with: --config, else the default.
    config_path = Path(args.config).resolve() if args.config else CONFIG_DIR / "navakankari.toml"
    try:
        config = load_config(config_path) if config_path.exists() else Config()
        needs = unit_needs_of(config.profile)
        mismatch = config.board_mismatch(load_profile(config.profile).points)
    except (ConfigError, ProfileError) as exc:
        print(f"navakankari service: {error_words(exc, words(args))}", file=sys.stderr)
        return 2
    if mismatch:  # the unit would fail at every start
        print(f"navakankari service: {config_path}: {mismatch}", file=sys.stderr)
        return 2
    said, go_on = before_install(config_path, dry_run=args.dry_run,
                                 groups=() if args.root or needs.root else needs.groups)
    for line in said:
        print(f"navakankari service: {line}", file=sys.stderr)
    if not go_on:
        return 2
    return run_steps(install_steps(needs=needs, root=args.root, config=config_path,
                                   network=Network(config.web_address, config.web_port,
                                                   bool(config.online_broker))),
                     dry_run=args.dry_run)


def cmd_doctor(args: argparse.Namespace) -> int:
    from pathlib import Path

    from navakankari.hal.profile import ProfileError, load_profile

    from ..core.errors import ConfigError
    from ..daemon.config import Config, load_config
    from ..system.audio import SpeechSetting
    from ..system.doctor import Doctor
    from ..system.findings import report, report_fix_lines
    from ..system.service import CONFIG_DIR

    root = Path(args.root)
    config_file = Path(args.config) if args.config else CONFIG_DIR / "navakankari.toml"
    on_disk = config_file if args.config else root / config_file.relative_to("/")
    try:
        config = load_config(on_disk) if args.config or on_disk.exists() else Config()
        profile = load_profile(args.profile or config.profile)
    except (ConfigError, ProfileError) as exc:
        print(f"navakankari doctor: {error_words(exc, words(args))}", file=sys.stderr)
        return 2
    tr = words(args, config.board_language)
    findings = Doctor(root, profile, config_file,
                      variant_problem=config.board_mismatch(profile.points, tr),
                      speech=SpeechSetting(config.speech_enabled, config.speech_device,
                                           config.language()), tr=tr).run()
    if args.fix_lines:
        report_fix_lines(findings, say=lambda line: print(line, file=sys.stderr), tr=tr)
    else:
        places = {"profile": args.profile or config.profile, "name": profile.name,
                  "config": config_file}
        print(tr.gettext("navakankari doctor: profile {profile} ({name}), config {config}")
              .format(**places) if args.config or on_disk.exists() else
              tr.gettext("navakankari doctor: profile {profile} ({name}), config {config} "
                         "(absent: the built-in defaults)").format(**places))
        report(findings, tr=tr)
    return 1 if any(f.blocking for f in findings) else 0


def register(sub: Commands) -> None:
    p = sub.add_parser("service", help="install, remove or inspect the systemd service",
                       description="Install, remove or inspect the systemd service that runs "
                                   "the board daemon at boot with a configuration file "
                                   "(install and uninstall need root; --dry-run prints the "
                                   "steps instead).")
    p.add_argument("action", choices=("install", "uninstall", "status"))
    p.add_argument("--dry-run", action="store_true", help="print what would be done")
    p.add_argument("--config", help="config to read the wiring profile from")
    p.add_argument("--root", action="store_true",
                   help="run as root (NeoPixels on GPIO18 of a Pi 1-4; chosen from the profile)")
    p.set_defaults(func=cmd_service)

    p = sub.add_parser("doctor", help="check this Pi against the board's wiring profile and say "
                                      "what to change")
    p.add_argument("--config", help="the daemon's configuration (default: "
                                    "/etc/navakankari/navakankari.toml under --root)")
    p.add_argument("--profile", help="check this wiring profile instead of the configured one")
    p.add_argument("--root", default="/", help="where the Pi's files are (default /)")
    p.add_argument("--fix-lines", action="store_true",
                   help="print only the config.txt lines to add (under [all])")
    language_option(p)
    p.set_defaults(func=cmd_doctor)

"""Blinka's `board` module, imported the way every backend here needs it.

On `import board`, Blinka 10 checks the Pi's platform packages and, in a terminal, offers to
pip-install what it finds missing (platform_dependencies.py, install_missing_platform_
dependencies), including backends this project never uses (Adafruit-Blinka-Raspberry-Pi-PWM).
The `pi` extra declares what the board needs, so the check is turned off unless the
environment already says otherwise; the systemd unit sets the same variable.
"""

from __future__ import annotations

import os
from types import ModuleType

SKIP_CHECK_ENV = "BLINKA_SKIP_DEPENDENCY_CHECK"


def import_board() -> ModuleType:
    """`import board`, without Blinka's interactive dependency installer."""
    os.environ.setdefault(SKIP_CHECK_ENV, "1")
    import board  # only on boards that use it

    module: ModuleType = board
    return module

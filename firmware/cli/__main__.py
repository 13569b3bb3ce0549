"""`python -m navakankari.firmware.cli`: the `navakankari` command."""

import sys

from .main import main

sys.exit(main())

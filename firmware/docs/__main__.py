"""`python -m navakankari.firmware.docs`: rewrite or check the generated build documents."""

import sys

from .generate import main

sys.exit(main())

"""`python -m navakankari.hal.docs`: rewrite or check the generated build documents."""

import sys

from .generate import main

sys.exit(main())

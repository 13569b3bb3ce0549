"""The hardware layer: sensor arrays and light strips behind one interface, and wiring profiles.

The hardware knows no game: nothing here imports the engine or the firmware, and point names
are plain strings taken from the wiring profile. Hardware libraries are imported only by the
backend that needs them, when it is opened.
"""

from .board import BACKEND_ENV, BackendError, BoardHardware, open_board
from .leds import RGB, LedError, LedStrip, correction_table
from .profile import Profile, ProfileError, dump_profile, load_profile, profile_names
from .sensors import Clock, SensorArray, SensorError, SensorEvent

__all__ = [
    "BACKEND_ENV",
    "RGB",
    "BackendError",
    "BoardHardware",
    "Clock",
    "LedError",
    "LedStrip",
    "Profile",
    "ProfileError",
    "SensorArray",
    "SensorError",
    "SensorEvent",
    "correction_table",
    "dump_profile",
    "load_profile",
    "open_board",
    "profile_names",
]

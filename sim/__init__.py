"""The simulated board: virtual sensors and LEDs that implement the hardware interfaces."""

from .board import (
    LedFrame,
    SensorFaults,
    SimulatedBoard,
    SimulatedLeds,
    SimulatedSensors,
    SimulationError,
)
from .clock import ManualClock
from .recording import Recorder, RecordingError, read_events, write_events

__all__ = [
    "LedFrame",
    "ManualClock",
    "Recorder",
    "RecordingError",
    "SensorFaults",
    "SimulatedBoard",
    "SimulatedLeds",
    "SimulatedSensors",
    "SimulationError",
    "read_events",
    "write_events",
]

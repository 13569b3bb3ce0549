"""The hardware layer: sensor arrays and light strips behind one interface, and wiring profiles.

The hardware knows no game: nothing here imports the engine or the firmware.
"""

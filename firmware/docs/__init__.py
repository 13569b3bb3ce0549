"""The build documents (pinout tables, wiring diagrams, board drawing, BOM, power budget),
generated from the wiring profiles by `python -m navakankari.firmware.docs`."""

"""The pin libraries behind `SensorArray` and `LedStrip`: gpiozero, a diode matrix through the
RPi.GPIO API, MCP23017 expanders and NeoPixels through Blinka. Imported only when a profile
asks for them, so a laptop without the Pi packages never loads them."""

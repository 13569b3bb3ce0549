"""The simulated board: virtual sensors and LEDs that implement the hardware interfaces."""

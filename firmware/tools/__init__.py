"""The figures and the test tools: `navakankari bench`'s runs, the independent referee of a
game record, and a throwaway local Mosquitto for online play on one machine."""

"""The raw sensor events of the game in play, kept in the store: the recording `navakankari
replay` runs through the same session again.
"""

from __future__ import annotations

EVENT_BATCH = 200
"""Raw events are written with the next action, or in batches of this many."""

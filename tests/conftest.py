"""Settings every test package shares."""

from hypothesis import settings

# A property holds or fails whatever the machine's load: Hypothesis's per-example deadline
# (200 ms) would make a test on a busy machine fail for its speed, which benchmarks measure.
settings.register_profile("navakankari", deadline=None)
settings.load_profile("navakankari")

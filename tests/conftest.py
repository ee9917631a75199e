import os

from hypothesis import settings

# The rules are pure functions: many quick examples in CI, fewer by hand.
settings.register_profile("ci", max_examples=150, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

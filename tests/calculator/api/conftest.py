"""The calculator's tests use the API clients of the tournament API's tests."""

from tests.tournaments.api.conftest import anon, owner  # noqa: F401

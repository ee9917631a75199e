"""If-Match against a game's version: strong tags only (RFC 9110, 13.1.1)."""

from __future__ import annotations

import pytest
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from scoring.errors import PreconditionFailedError, PreconditionRequiredError
from tournaments.api.preconditions import if_match_version
from tournaments.models import Game

CURRENT = 2


def _asked(header: str | None) -> Request:
    extra = {} if header is None else {"HTTP_IF_MATCH": header}
    return Request(APIRequestFactory().put("/api/v1/games/1/", **extra))


@pytest.mark.parametrize(
    ("header", "version"),
    [
        ('"2"', 2),
        ("2", 2),
        ('"1", "2"', 2),
        ('"7"', 7),  # another version: the service answers 412 under its row lock
        ('W/"1", "2"', 2),  # the strong tag in the list matches
        ("*", None),
    ],
)
def test_a_strong_tag_names_a_version(header, version):
    game = Game(number=1, version=CURRENT)
    assert if_match_version(_asked(header), game) == version


@pytest.mark.parametrize("header", ['W/"2"', 'w/"2"', 'W/"2", W/"3"', "W/2", "banana", '"2'])
def test_a_weak_or_malformed_tag_never_matches(header):
    game = Game(number=1, version=CURRENT)
    with pytest.raises(PreconditionFailedError):
        if_match_version(_asked(header), game)


@pytest.mark.parametrize("header", [None, "", "  "])
def test_no_tag_at_all_is_a_428(header):
    with pytest.raises(PreconditionRequiredError):
        if_match_version(_asked(header), Game(number=1, version=CURRENT))

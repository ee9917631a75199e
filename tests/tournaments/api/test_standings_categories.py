"""The standings endpoint's ``?category=``: one category's players ranked from 1, an
empty list for a category nobody carries, a bound on its length, pinned queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.rules import CATEGORY_MAX_LENGTH
from tests.factories import match_seated
from tests.tournaments.web.support import play
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def played() -> Tournament:
    match = match_seated(players=4, public=True)
    play(match, games=2)
    t = match.round.tournament
    for entry, category in zip(t.entries.order_by("pk"), ["U14", "Senior", "U14", ""], strict=True):
        Entry.objects.filter(pk=entry.pk).update(category=category)
    return t


def test_a_category_is_ranked_within_itself(anon: APIClient) -> None:
    t = played()
    url = f"/api/v1/tournaments/{t.pk}/standings/"
    everyone = anon.get(url).json()["results"]
    u14 = anon.get(url, {"category": " U14 "}).json()["results"]
    assert [r["player"] for r in u14] == [r["player"] for r in everyone if r["category"] == "U14"]
    assert u14[0]["rank"] == 1 and len(u14) == 2
    assert {r["category"] for r in u14} == {"U14"}
    # the whole list is unchanged by the asking
    assert anon.get(url).json()["results"] == everyone


def test_a_category_nobody_carries_is_an_empty_list(anon: APIClient) -> None:
    t = played()
    answer = anon.get(f"/api/v1/tournaments/{t.pk}/standings/", {"category": "Nobody"})
    assert answer.status_code == 200 and answer.json()["results"] == []


def test_a_too_long_category_is_refused_naming_it(anon: APIClient) -> None:
    t = played()
    answer = anon.get(
        f"/api/v1/tournaments/{t.pk}/standings/", {"category": "x" * (CATEGORY_MAX_LENGTH + 1)}
    )
    assert answer.status_code == 400
    assert "category" in str(answer.json())


def test_a_category_costs_no_more_queries_than_everyone(anon: APIClient) -> None:
    t = played()
    url = f"/api/v1/tournaments/{t.pk}/standings/"
    counts = []
    for query in ({}, {"category": "U14"}):
        with CaptureQueriesContext(connection) as ctx:
            assert anon.get(url, query).status_code == 200
        counts.append(len(ctx))
    # the category's answer reuses the shared rows the first request computed
    assert counts[1] <= counts[0]

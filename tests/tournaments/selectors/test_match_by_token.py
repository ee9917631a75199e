"""selectors.matches.match_by_token: the match a table's token opens, read once
for the whole recording request."""

from __future__ import annotations

from datetime import date

import pytest

from tests.factories import MatchFactory, match_seated
from tournaments.models import Match, Seat
from tournaments.selectors.matches import SEATS_KEPT, match_by_token
from tournaments.selectors.matches import match_seated as match_seated_read

pytestmark = pytest.mark.django_db


def test_a_token_brings_round_tournament_and_seats_in_one_query(django_assert_num_queries):
    match = match_seated(players=3)
    with django_assert_num_queries(1):
        read = match_by_token(match.token)
        assert read is not None
        seats = getattr(read, SEATS_KEPT)
        names = [s.player.name for s in seats]
        tournament = read.round.tournament
    assert all(s.match is read for s in seats)  # one match, not a copy per seat
    orm = match.seats.select_related("player").order_by("position")
    assert [(s.pk, s.position) for s in seats] == [(s.pk, s.position) for s in orm]
    assert names == [s.player.name for s in orm]
    assert tournament == Match.objects.get(pk=match.pk).round.tournament


def test_an_unknown_token_opens_nothing_and_a_bare_match_has_no_seats():
    assert match_by_token("no-such-token") is None
    bare = MatchFactory()
    read = match_by_token(bare.token)
    assert read is not None and read.pk == bare.pk and getattr(read, SEATS_KEPT) == []


def test_the_read_is_what_the_orm_reads_field_for_field(django_assert_num_queries):
    """Every field of the match, its round and its tournament, converted as the
    ORM converts it (aware times, JSON settings, dates); each seat whole."""
    match = match_seated(players=4, table_points={"4": [4, 2, 1, 0]})
    round_ = match.round
    round_.date = date(2026, 3, 1)
    round_.save(update_fields=["date"])
    with django_assert_num_queries(1):
        read = match_by_token(match.token)
    assert read is not None
    orm = Match.objects.select_related("round__tournament").get(pk=match.pk)
    for mine, theirs in (
        (read, orm),
        (read.round, orm.round),
        (read.round.tournament, orm.round.tournament),
    ):
        for field in type(theirs)._meta.concrete_fields:
            assert getattr(mine, field.attname) == getattr(theirs, field.attname), field.name
    assert read.round.tournament.created.tzinfo is not None
    seats = getattr(read, SEATS_KEPT)
    for seat, stored in zip(seats, match.seats.order_by("position"), strict=True):
        for field in Seat._meta.concrete_fields:
            assert getattr(seat, field.attname) == getattr(stored, field.attname), field.name


def test_a_seated_match_by_id_reads_the_same(django_assert_num_queries):
    match = match_seated(players=2)
    with django_assert_num_queries(1):
        by_id = match_seated_read(match_id=match.pk)
    by_token = match_by_token(match.token)
    assert by_id is not None and by_token is not None
    assert [s.pk for s in getattr(by_id, SEATS_KEPT)] == [
        s.pk for s in getattr(by_token, SEATS_KEPT)
    ]
    assert match_seated_read(match_id=10**9) is None

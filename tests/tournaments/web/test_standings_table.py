"""Find my table: who sees it, every active player A to Z with table and seat, the search."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory, round_play, tournament_entered
from tests.tournaments.web.hall_support import ACTORS, client_as, tournament_seated
from tournaments.models import Adjustment, Entry, Round, Seat
from tournaments.services import entries, rounds
from tournaments.web.hall_pages import TABLES_PER_PAGE

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("public", [True, False])
def test_who_sees_find_my_table(actor, public):
    tournament = tournament_seated(public=public)
    seen = public or actor in {"owner", "co", "staff"}
    page = client_as(actor, tournament).get(f"/t/{tournament.slug}/tables/")
    assert page.status_code == (200 if seen else 404)


def _lines(page) -> list[tuple[str, int | None, int | None, bool]]:
    return [(p.name, p.table, p.seat, p.bye) for chunk in page.context["pages"] for p, _ in chunk]


def test_every_active_player_a_to_z_with_table_and_seat_of_the_latest_round():
    tournament = tournament_seated(players=8)
    round_play(Round.objects.get(tournament=tournament))
    latest = rounds.round_seat_next(tournament=tournament)
    # Withdrawn after the round was seated: no longer listed.
    gone = Seat.objects.filter(round=latest).order_by("match__table", "position")[0]
    entries.entry_withdraw(tournament=tournament, player_id=gone.player_id)
    # Arrived after it: listed, not seated.
    late = PlayerFactory(name="aaron Late")
    entries.entries_add(tournament=tournament, player_ids=[late.pk])
    page = client_as("anon", tournament).get(f"/t/{tournament.slug}/tables/")
    seats = {
        s.player.name: (s.match.table, s.position)
        for s in Seat.objects.filter(round=latest).select_related("player", "match")
    }
    expected = sorted(
        [(name, t, p, False) for name, (t, p) in seats.items() if name != gone.player.name]
        + [("aaron Late", None, None, False)],
        key=lambda line: line[0].casefold(),
    )
    assert _lines(page) == expected
    html = page.content.decode()
    assert "not seated" in html
    assert page.context["round"].number == 2


def test_a_bye_is_said():
    tournament = tournament_seated(players=5, max_table_size=2)
    bye = Adjustment.objects.get(round__tournament=tournament, kind=Adjustment.Kind.BYE)
    page = client_as("anon", tournament).get(f"/t/{tournament.slug}/tables/")
    assert [name for name, _t, _s, is_bye in _lines(page) if is_bye] == [bye.player.name]
    assert ">bye</td>" in page.content.decode()


@pytest.mark.parametrize(
    ("search", "found"),
    # Any case, any accents: "ann" is in "Hannsen", and "Å" is searched as "a" too.
    [("", 3), ("ann", 3), ("ANN", 3), ("  bo ", 1), ("zz", 0), ("Ånn", 3), ("anni", 1)],
)
def test_the_search_narrows_the_list_without_javascript(search, found):
    tournament = tournament_entered(players=0)
    people = [PlayerFactory(name=n) for n in ("Anna Berg", "Bo Hannsen", "Ånnika")]
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in people)
    page = client_as("anon", tournament).get(f"/t/{tournament.slug}/tables/", {"q": search})
    assert len(_lines(page)) == found
    assert page.context["total"] == 3
    # The "no such name" line shows only when nobody was found.
    assert ("data-find-none hidden>" in page.content.decode()) == bool(found)


def test_a_long_search_is_cut_not_refused():
    tournament = tournament_seated(players=4)
    page = client_as("anon", tournament).get(f"/t/{tournament.slug}/tables/", {"q": "x" * 5000})
    assert page.status_code == 200
    assert len(page.context["search"]) == 120


def test_printed_a_hundred_players_a_sheet():
    tournament = tournament_seated(players=TABLES_PER_PAGE + 4)
    page = client_as("anon", tournament).get(f"/t/{tournament.slug}/tables/")
    assert [len(chunk) for chunk in page.context["pages"]] == [TABLES_PER_PAGE, 4]
    assert page.content.decode().count('class="find-table-page"') == 2


def test_before_any_round_everyone_is_listed_unseated():
    tournament = tournament_entered(players=3)
    page = client_as("anon", tournament).get(f"/t/{tournament.slug}/tables/")
    assert [line[1:] for line in _lines(page)] == [(None, None, False)] * 3
    assert "No round is seated yet" in page.content.decode()


def test_find_my_table_costs_a_few_queries(django_assert_max_num_queries):
    tournament = tournament_seated(players=200)
    client = client_as("anon", tournament)
    client.get(f"/t/{tournament.slug}/tables/")
    with django_assert_max_num_queries(5):
        client.get(f"/t/{tournament.slug}/tables/", {"q": "player"})

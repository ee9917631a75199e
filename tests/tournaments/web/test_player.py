"""The player's page ``/p/<id>/``: games in public tournaments only, running totals, links."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client

from tests.factories import (
    AdjustmentFactory,
    ClubFactory,
    PlayerFactory,
    UserFactory,
    match_seated,
)
from tests.tournaments.web.support import play, tournament_played
from tournaments.models import Entry, Game, PlayerRating, Rack

pytestmark = pytest.mark.django_db


def _parts(html: str) -> list[str]:
    return re.findall(r'data-player-tournament="([^"]+)"', html)


def _totals(html: str) -> list[str]:
    return re.findall(r"data-player-total>([^<]+)<", html)


def _signed(value: Decimal) -> str:
    text = (
        f"{value:.2f}".rstrip("0").rstrip(".") if value != value.to_integral() else str(int(value))
    )
    return ("+" if value > 0 else "") + text


def test_running_totals_wins_and_tables(client: Client) -> None:
    tournament = tournament_played(tables=2, rounds=2, games=3)
    player = tournament.entries.first().player
    racks = list(
        Rack.objects.filter(player=player)
        .select_related("game__match__round")
        .order_by("game__match__round__number", "game__number")
    )
    assert len(racks) == 6
    html = client.get(f"/p/{player.pk}/").content.decode()
    assert _parts(html) == [tournament.slug]
    running, expected = Decimal(0), []
    for rack in racks:
        running += rack.score + rack.bonus
        expected.append(_signed(running))
    assert re.findall(r"data-running>([^<]+)<", html) == expected
    assert _totals(html) == [expected[-1]]
    wins = sum(r.winner for r in racks)
    assert f"data-player-wins>{wins}<" in html
    # The tables played: each round's table, linked, and the opponents' pages.
    for rack in racks[::3]:
        match = rack.game.match
        assert f"Round {match.round.number}, table {match.table}" in html
        for seat in match.seats.exclude(player=player):
            assert f'href="/p/{seat.player_id}/"' in html


def test_adjustments_count_in_the_total(client: Client) -> None:
    match = match_seated(players=2)
    play(match, games=1)
    player = match.seats.get(position=1).player
    AdjustmentFactory(tournament=match.round.tournament, player=player, points=-7)
    score = Rack.objects.get(player=player).score
    html = client.get(f"/p/{player.pk}/").content.decode()
    assert _totals(html) == [_signed(score - 7)]
    assert "Organiser&#x27;s bonuses and penalties" in html or "bonuses and penalties" in html


def test_the_record_lists_public_tournaments_only_the_statistics_what_the_visitor_sees(
    client: Client,
) -> None:
    public = match_seated(players=2)
    play(public, games=1)
    player = public.seats.get(position=1).player
    private = match_seated(players=2, public=False)
    private.seats.filter(position=1).update(player=player)
    Entry.objects.create(tournament=private.round.tournament, player=player)
    play(private, games=2)
    hidden = private.round.tournament
    co = UserFactory()
    hidden.co_organisers.add(co)
    for user, games in (
        (None, 1),
        (UserFactory(), 1),
        (hidden.owner, 3),
        (co, 3),
        (UserFactory(is_staff=True), 3),
    ):
        client.logout()
        if user is not None:
            client.force_login(user)
        html = client.get(f"/p/{player.pk}/").content.decode()
        assert _parts(html) == [public.round.tournament.slug]
        assert f'data-stat="games">{games}<' in html
        assert (hidden.name in html) is (games == 3)
        assert (f'href="/t/{hidden.slug}/"' in html) is (games == 3)


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 404), ("other", 404), ("owner", 200), ("co", 200), ("staff", 200)],
)
def test_a_player_of_private_tournaments_only(client: Client, who: str, status: int) -> None:
    match = match_seated(players=2, public=False)
    play(match, games=1)
    tournament = match.round.tournament
    player = match.seats.get(position=1).player
    users = {
        "other": UserFactory(),
        "owner": tournament.owner,
        "co": UserFactory(),
        "staff": UserFactory(is_staff=True),
    }
    tournament.co_organisers.add(users["co"])
    if who in users:
        client.force_login(users[who])
    response = client.get(f"/p/{player.pk}/")
    assert response.status_code == status
    if status == 200:
        html = response.content.decode()
        assert _parts(html) == []
        assert "No games in public tournaments yet." in html


def test_an_entered_player_without_games_yet(client: Client) -> None:
    match = match_seated(players=2)
    response = client.get(f"/p/{match.seats.first().player_id}/")
    assert response.status_code == 200
    assert "No games in public tournaments yet." in response.content.decode()


@pytest.mark.parametrize("player_id", ["999999", "9223372036854775807"])
def test_unknown_player_is_404(client: Client, player_id: str) -> None:
    PlayerFactory()
    assert client.get(f"/p/{player_id}/").status_code == 404


def test_a_player_nobody_entered_is_404(client: Client) -> None:
    assert client.get(f"/p/{PlayerFactory().pk}/").status_code == 404


@pytest.mark.parametrize(
    ("confirmation", "unconfirmed", "shown"),
    [
        ("none", "include", 2),
        ("organiser", "include", 2),
        ("organiser", "exclude", 1),
        ("double_entry", "include", 1),
    ],
)
def test_games_the_public_pages_leave_out_stay_out(
    client: Client, confirmation: str, unconfirmed: str, shown: int
) -> None:
    match = match_seated(players=2, confirmation=confirmation, standings_unconfirmed=unconfirmed)
    play(match, games=2)
    Game.objects.filter(match=match).update(state=Game.State.CONFIRMED)
    Game.objects.filter(match=match, number=2).update(state=Game.State.ENTERED)
    html = client.get(f"/p/{match.seats.first().player_id}/").content.decode()
    assert len(re.findall(r"data-running>", html)) == shown


def test_queries_are_planned(client: Client, django_assert_num_queries) -> None:
    tournament = tournament_played(tables=3, rounds=3, games=2)
    player = tournament.entries.first().player
    AdjustmentFactory(tournament=tournament, player=player)
    other = match_seated(players=3)
    other.seats.filter(position=1).update(player=player)
    Entry.objects.create(tournament=other.round.tournament, player=player)
    play(other, games=4)
    client.get(f"/p/{player.pk}/")  # reads each tournament's current ranking once
    # The player, the page's tournaments, the racks, the seats of those tables, the
    # adjustments, and the tournaments' versions: each part shows the player's place in
    # the current ranking, kept per version. The statistics: the player's racks, the
    # others at their tables, their tournaments, the opponents' names; the current rating
    # and its history.
    with django_assert_num_queries(12):
        response = client.get(f"/p/{player.pk}/")
    assert len(_parts(response.content.decode())) == 2


def test_standings_round_pages_and_tournament_page_link_the_players(client: Client) -> None:
    tournament = tournament_played(tables=1, rounds=1, games=1)
    player = tournament.entries.first().player
    link = f'href="/p/{player.pk}/"'
    assert link in client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert link in client.get(f"/t/{tournament.slug}/").content.decode()
    assert link in client.get(f"/t/{tournament.slug}/rounds/1/").content.decode()
    assert f'href="/de/p/{player.pk}/"' in client.get(f"/de/t/{tournament.slug}/").content.decode()


def test_statistics_rating_and_its_chart(client: Client) -> None:
    tournament = tournament_played(tables=2, rounds=3, games=2)
    player = tournament.entries.first().player
    racks = list(Rack.objects.filter(player=player))
    html = client.get(f"/p/{player.pk}/").content.decode()
    assert f'data-stat="games">{len(racks)}<' in html
    assert f'data-stat="wins">{sum(r.winner for r in racks)}<' in html
    assert f'data-stat="jokers_left">{sum(r.jokers for r in racks)}<' in html
    assert 'data-stats="head_to_head"' in html
    rating = PlayerRating.objects.get(player=player)
    assert f'data-player-rating="{rating.rating}"' in html
    assert "provisional" in html  # 6 rated games of 20
    # The chart: an inline SVG with its title and description, one point per
    # rated game, and the table after each tournament for screen readers and print.
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert "<title" in svg and "<desc" in svg
    points = re.search(r'class="chart-line" points="([^"]+)"', svg)
    assert points is not None and len(points.group(1).split()) == len(racks)
    assert re.findall(r"data-chart-rating>(-?\d+)<", html) == [str(rating.rating)]
    assert "<script" not in html[html.index("<main") :]


def test_the_statistics_and_chart_in_danish(client: Client) -> None:
    tournament = tournament_played(tables=1, rounds=1, games=2)
    player = tournament.entries.first().player
    html = client.get(f"/da/p/{player.pk}/").content.decode()
    assert "Statistik" in html
    assert "Ratinghistorik" in html


def test_no_rating_and_no_chart_without_rated_games(client: Client) -> None:
    match = match_seated(players=2, rated=False)
    play(match, games=2)
    html = client.get(f"/p/{match.seats.first().player_id}/").content.decode()
    assert "data-player-rating" not in html
    assert "<svg" not in html[html.index("<main") :]
    assert 'data-stat="games">2<' in html


def test_a_private_club_is_named_only_to_those_who_may_see_it(client: Client) -> None:
    tournament = tournament_played(tables=1, rounds=1, games=1)
    owner = UserFactory()
    player = tournament.entries.first().player
    player.club = ClubFactory(name="Hidden Club", public=False, created_by=owner)
    player.save()
    assert "Hidden Club" not in client.get(f"/p/{player.pk}/").content.decode()
    client.force_login(UserFactory())
    assert "Hidden Club" not in client.get(f"/p/{player.pk}/").content.decode()
    client.force_login(owner)
    html = client.get(f"/p/{player.pk}/").content.decode()
    assert f'<a href="/c/{player.club.slug}/">Hidden Club</a>' in html
    public = ClubFactory(name="Open Club")
    other = tournament.entries.exclude(player=player).first().player
    other.club = public
    other.save()
    client.logout()
    assert (
        f'<a href="/c/{public.slug}/">Open Club</a>'
        in client.get(f"/p/{other.pk}/").content.decode()
    )


def test_each_table_size_season_and_tournament_row_has_every_figure(client: Client) -> None:
    # Design §6: the same figures over all time, per season and per tournament.
    tournament = tournament_played(tables=1, rounds=2, games=3)
    player = tournament.entries.first().player
    racks = list(Rack.objects.filter(player=player))
    html = client.get(f"/p/{player.pk}/").content.decode()
    table = html[html.index('data-stats="tournaments"') :]
    table = table[: table.index("</table>")]
    lost = [r.rack_value for r in racks if not r.winner]
    average = (Decimal(sum(lost)) / max(len(lost), 1)).quantize(Decimal("0.01"))
    left = "–" if not lost else f"{average:.2f}".removesuffix(".00")
    best, worst = max(r.score for r in racks), min(r.score for r in racks)
    assert f'data-figure="average_left_losing">{left}<' in table
    assert f'data-figure="jokers_left">{sum(r.jokers for r in racks)}<' in table
    assert f'data-figure="best">{_signed(best)}<' in table
    assert f'data-figure="worst">{_signed(worst)}<' in table
    assert 'data-figure="longest_winning_run">' in table
    heads = html[html.index('data-stats="by_table_size"') :]
    for heading in (
        "Left on the rack when losing",
        "Jokers left on the rack",
        "Longest winning run",
    ):
        assert heading in heads[: heads.index("</thead>")]


def test_the_record_comes_five_tournaments_a_page_newest_first(
    client: Client, django_assert_num_queries
) -> None:
    import datetime as dt

    from tournaments.selectors.player_games import RECORD_TOURNAMENTS

    first = match_seated(players=2, date=dt.date(2026, 1, 1))
    player = first.seats.first().player
    matches = [first]
    for day in range(2, 2 + RECORD_TOURNAMENTS + 1):
        match = match_seated(players=2, date=dt.date(2026, 1, day))
        match.seats.filter(position=1).update(player=player)
        Entry.objects.create(tournament=match.round.tournament, player=player)
        matches.append(match)
    for match in matches:
        play(match, games=1)
    newest = [m.round.tournament.slug for m in reversed(matches)]
    page_one = client.get(f"/p/{player.pk}/").content.decode()
    assert _parts(page_one) == newest[:RECORD_TOURNAMENTS]
    assert 'href="?page=2" rel="next"' in page_one and 'rel="prev"' not in page_one
    client.get(f"/p/{player.pk}/?page=2")  # each tournament's ranking read once
    with django_assert_num_queries(12):
        page_two = client.get(f"/p/{player.pk}/?page=2").content.decode()
    assert _parts(page_two) == newest[RECORD_TOURNAMENTS:]
    assert 'href="?page=1" rel="prev"' in page_two and 'rel="next"' not in page_two
    for page in ("3", "0", "-1", "x", "1.5"):
        assert client.get(f"/p/{player.pk}/?page={page}").status_code == 404

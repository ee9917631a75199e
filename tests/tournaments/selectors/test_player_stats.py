"""A player's statistics as a viewer may see them: only games of tournaments
the viewer may see, only confirmed games, in a fixed number of queries."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.factories import ClubFactory, PlayerFactory, UserFactory, match_seated
from tests.tournaments.web.support import play, tournament_played
from tournaments.models import Entry, Game, Match, Player, Rack, Season
from tournaments.selectors.player_stats import player_stats_seen

pytestmark = pytest.mark.django_db


def _join(match: Match, player: Player) -> None:
    """``player`` takes seat 1 of ``match`` (entered in its tournament)."""
    match.seats.filter(position=1).update(player=player)
    Entry.objects.get_or_create(tournament=match.round.tournament, player=player)


@pytest.fixture
def both() -> tuple[Player, Match, Match]:
    """A player with 2 games in a public tournament and 3 in a private one."""
    player = PlayerFactory()
    public = match_seated(players=3)
    private = match_seated(players=2, public=False)
    for match in (public, private):
        _join(match, player)
    play(public, games=2)
    play(private, games=3)
    return player, public, private


@pytest.mark.parametrize(
    ("who", "games"),
    [("anonymous", 2), ("stranger", 2), ("owner", 5), ("co", 5), ("staff", 5)],
)
def test_a_visitor_never_sees_a_private_game_in_any_statistic(
    both: tuple[Player, Match, Match], who: str, games: int
) -> None:
    player, _public, private = both
    hidden = private.round.tournament
    users = {
        "anonymous": None,
        "stranger": UserFactory(),
        "owner": hidden.owner,
        "co": UserFactory(),
        "staff": UserFactory(is_staff=True),
    }
    hidden.co_organisers.add(users["co"])
    shown = player_stats_seen(player=player, user=users[who])
    stats = shown.stats
    private_opponent = private.seats.exclude(player=player).get().player_id
    assert stats.overall.games == games
    assert sum(f.games for f in stats.by_table_size.values()) == games
    sees_private = games == 5
    assert (hidden.pk in stats.tournaments) is sees_private
    assert (hidden.pk in shown.tournaments) is sees_private
    assert (2 in stats.by_table_size) is sees_private
    opponents = {h.opponent_id for h in stats.head_to_head}
    assert (private_opponent in opponents) is sees_private
    assert (private_opponent in shown.opponents) is sees_private
    private_games = set(Game.objects.filter(match=private).values_list("pk", flat=True))
    for figures in [stats.overall, *stats.tournaments.values(), *stats.by_table_size.values()]:
        for picked in (figures.best, figures.worst):
            assert picked is not None
            assert (picked.game_id in private_games) <= sees_private


@pytest.mark.parametrize("unconfirmed", ["include", "exclude"])
@pytest.mark.parametrize("confirmation", ["organiser", "double_entry"])
def test_only_confirmed_games_count(confirmation: str, unconfirmed: str) -> None:
    match = match_seated(players=2, confirmation=confirmation, standings_unconfirmed=unconfirmed)
    play(match, games=4)
    Game.objects.filter(match=match).update(state=Game.State.CONFIRMED)
    Game.objects.filter(match=match, number=2).update(state=Game.State.ENTERED)
    Game.objects.filter(match=match, number=3).update(
        state=Game.State.DISPUTED, second_entry={"ending": "rummikub", "racks": []}
    )
    player = match.seats.get(position=1).player
    owner = match.round.tournament.owner
    for user in (None, owner):
        assert player_stats_seen(player=player, user=user).stats.overall.games == 2


def test_the_figures_are_the_stored_games() -> None:
    match = match_seated(players=4)
    play(match, games=4)
    player = match.seats.get(position=2).player
    racks = list(Rack.objects.filter(player=player).order_by("game__number"))
    overall = player_stats_seen(player=player, user=None).stats.overall
    assert overall.games == 4
    assert overall.wins == sum(r.winner for r in racks)
    assert overall.jokers_left == sum(r.jokers for r in racks)
    assert overall.best is not None and overall.best.score == max(r.score for r in racks)
    assert overall.worst is not None and overall.worst.score == min(r.score for r in racks)


def test_seasons_are_named_and_a_dateless_tournament_plays_on_its_creation_day() -> None:
    match = match_seated(players=2, date=None)
    tournament = match.round.tournament
    season = Season.objects.create(
        club=ClubFactory(), name="Autumn", starts=dt.date(2026, 9, 1),
        ends=dt.date(2026, 12, 1),
    )  # fmt: skip
    tournament.season = season
    tournament.save(update_fields=["season"])
    play(match, games=1)
    shown = player_stats_seen(player=match.seats.first().player, user=None)
    assert shown.seasons == {season.pk: "Autumn"}
    assert shown.stats.seasons[season.pk].games == 1
    # Its creation day in the site's time zone (after 23:00 UTC, Copenhagen's day is the next).
    assert shown.tournaments[tournament.pk].date == timezone.localtime(tournament.created).date()


@pytest.mark.parametrize("user", ["anonymous", "staff"])
def test_four_queries_whatever_the_number_of_games(django_assert_num_queries, user: str) -> None:
    small = tournament_played(tables=1, rounds=1, games=1)
    large = tournament_played(tables=3, rounds=3, games=3)
    viewer = UserFactory(is_staff=True) if user == "staff" else None
    for tournament in (small, large):
        player = tournament.entries.first().player
        with django_assert_num_queries(4):
            shown = player_stats_seen(player=player, user=viewer)
        assert shown.stats.overall.games > 0


def test_one_query_without_games(django_assert_num_queries) -> None:
    player = PlayerFactory()
    with django_assert_num_queries(1):
        shown = player_stats_seen(player=player, user=None)
    assert shown.stats.overall.games == 0

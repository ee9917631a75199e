"""``GET /api/v1/players/{id}/stats/``: the blocks of design §6, each with
games and wins, counted over the games the caller may see."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.factories import PlayerFactory, UserFactory, match_seated
from tests.tournaments.api.conftest import client_as
from tests.tournaments.web.support import play
from tournaments.models import Entry, Game, Rack

pytestmark = pytest.mark.django_db

BLOCKS = ("overall", "by_table_size", "seasons", "tournaments", "head_to_head")


def _url(player_id: int) -> str:
    return f"/api/v1/players/{player_id}/stats/"


def test_the_blocks_and_their_numbers() -> None:
    match = match_seated(players=3)
    play(match, games=3)
    player = match.seats.get(position=1).player
    racks = list(Rack.objects.filter(player=player))
    body = client_as().get(_url(player.pk)).json()
    assert set(body) == {"player", "name", *BLOCKS}
    assert (body["player"], body["name"]) == (player.pk, player.name)
    overall = body["overall"]
    wins = sum(r.winner for r in racks)
    assert (overall["games"], overall["wins"]) == (3, wins)
    assert overall["jokers_left"] == sum(r.jokers for r in racks)
    best = max(racks, key=lambda r: (r.score, -r.game.number))
    assert overall["best"] == {
        "game": best.game_id,
        "tournament": match.round.tournament_id,
        "round": 1,
        "table": 1,
        "number": best.game.number,
        "score": int(best.score) if best.score == best.score.to_integral() else float(best.score),
    }
    average = sum((r.score for r in racks), Decimal(0)) / 3
    assert overall["average_score"] == pytest.approx(float(average), abs=0.005)
    assert [b["size"] for b in body["by_table_size"]] == [3]
    assert body["by_table_size"][0]["games"] == 3
    tournament = match.round.tournament
    assert [(t["tournament"], t["slug"], t["games"]) for t in body["tournaments"]] == [
        (tournament.pk, tournament.slug, 3)
    ]
    assert body["seasons"] == []
    others = {s.player_id: s.player.name for s in match.seats.exclude(player=player)}
    assert {h["opponent"]: h["name"] for h in body["head_to_head"]} == others
    assert all(h["games"] == 3 for h in body["head_to_head"])


def test_a_player_without_games_has_empty_blocks() -> None:
    match = match_seated(players=2)
    body = client_as().get(_url(match.seats.first().player_id)).json()
    assert body["overall"]["games"] == 0
    assert body["overall"]["win_rate"] is None
    assert body["overall"]["best"] is None
    assert [body[b] for b in BLOCKS[1:]] == [[], [], [], []]


@pytest.mark.parametrize(
    ("who", "status", "games"),
    [("anonymous", 404, 0), ("stranger", 404, 0), ("owner", 200, 2), ("staff", 200, 2)],
)
def test_a_player_of_a_private_tournament(who: str, status: int, games: int) -> None:
    match = match_seated(players=2, public=False)
    play(match, games=2)
    owner = match.round.tournament.owner
    users = {"anonymous": None, "stranger": UserFactory(), "owner": owner}
    user = users.get(who) or (UserFactory(is_staff=True) if who == "staff" else None)
    response = client_as(user).get(_url(match.seats.first().player_id))
    assert response.status_code == status
    if status == 200:
        assert response.json()["overall"]["games"] == games


def test_private_games_count_only_for_their_organisers() -> None:
    public = match_seated(players=2)
    private = match_seated(players=2, public=False)
    player = public.seats.get(position=1).player
    private.seats.filter(position=1).update(player=player)
    Entry.objects.create(tournament=private.round.tournament, player=player)
    play(public, games=1)
    play(private, games=2)
    for user, games in ((None, 1), (UserFactory(), 1), (private.round.tournament.owner, 3)):
        body = client_as(user).get(_url(player.pk)).json()
        assert body["overall"]["games"] == games
        assert sum(t["games"] for t in body["tournaments"]) == games


def test_unconfirmed_games_do_not_count() -> None:
    match = match_seated(players=2, confirmation="organiser")
    play(match, games=2)
    Game.objects.filter(match=match, number=1).update(state=Game.State.CONFIRMED)
    Game.objects.filter(match=match, number=2).update(state=Game.State.ENTERED)
    body = client_as().get(_url(match.seats.first().player_id)).json()
    assert body["overall"]["games"] == 1


@pytest.mark.parametrize("player_id", ["999999", "9223372036854775807"])
def test_unknown_player_is_404(player_id: str) -> None:
    PlayerFactory()
    response = client_as().get(f"/api/v1/players/{player_id}/stats/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")

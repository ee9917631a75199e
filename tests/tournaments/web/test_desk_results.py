"""Results on the desk: a match's games entered, corrected (any of them) and
deleted (after a confirmation), its history, stale pages refused, who gets in;
and deleting an adjustment."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from scoring.racks import RackIn
from tests.factories import AdjustmentFactory, UserFactory, match_seated, seated_ids
from tests.tournaments.web.support import entry_post, play
from tests.tournaments.web.trust_support import phone
from tournaments.api import matches as api_matches
from tournaments.models import Adjustment, AuditEvent, Game, Match
from tournaments.selectors.audit import game_history_of
from tournaments.services.games import game_delete
from tournaments.services.results import game_confirm, game_enter, game_restore

pytestmark = pytest.mark.django_db


def _url(match: Match, tail: str = "") -> str:
    return f"/t/{match.round.tournament.slug}/organise/tables/{match.pk}/{tail}"


def _racks(match: Match, *, loser_points: str = "10") -> dict[int, dict[str, str]]:
    a, *others = seated_ids(match)
    return {a: {"tiles": ""}, **{p: {"points": loser_points} for p in others}}


def _correct_post(match: Match, game: Game, *, version: int, points: str) -> dict[str, str]:
    data = entry_post(match, _racks(match, loser_points=points))
    fixed = {f"fix-{key}": value for key, value in data.items()}
    return {**fixed, "fix-game": str(game.number), "fix-version": str(version)}


@pytest.fixture
def desk(client: Client) -> tuple[Client, Match]:
    match = match_seated(players=3, games_per_round=4)
    play(match, games=3)
    client.force_login(match.round.tournament.owner)
    return client, match


def test_desk_records_the_next_game(desk) -> None:
    client, match = desk
    response = client.post(_url(match), entry_post(match, _racks(match)))
    assert response.status_code == 302
    assert response["Location"] == _url(match)  # no anchor: the message shows at the top
    text = client.get(response["Location"]).content.decode()
    assert "Game 4 recorded." in text
    assert "All 4 games of this table are recorded." in text
    assert match.games.count() == 4


def test_desk_refuses_a_bad_game_at_its_field_and_stores_nothing(desk) -> None:
    client, match = desk
    a, b, c = seated_ids(match)
    data = entry_post(match, {a: {"tiles": ""}, b: {"tiles": "R14"}, c: {"points": "4"}})
    response = client.post(_url(match), data)
    assert response.status_code == 400
    assert "numbers run from 1 to 13" in " ".join(response.context["form"].errors["p2_tiles"])
    assert match.games.count() == 3


def test_desk_corrects_a_game_that_is_not_the_last(desk) -> None:
    client, match = desk
    first = match.games.get(number=1)
    page = client.get(_url(match) + "?correct=1").content.decode()
    assert "Correct game 1" in page and 'name="fix-version"' in page
    response = client.post(
        _url(match, "correct/"), _correct_post(match, first, version=first.version, points="7")
    )
    assert response.status_code == 302
    assert response["Location"] == _url(match)
    assert "Game 1 corrected." in client.get(response["Location"]).content.decode()
    first.refresh_from_db()
    assert first.version == 2
    assert sorted(first.racks.values_list("points", flat=True)) == [0, 7, 7]
    assert match.games.count() == 3


def test_desk_refuses_a_stale_correction_and_changes_nothing(desk) -> None:
    client, match = desk
    second = match.games.get(number=2)
    before = sorted(second.racks.values_list("score", flat=True))
    response = client.post(
        _url(match, "correct/"), _correct_post(match, second, version=7, points="7")
    )
    assert response.status_code == 400
    assert "changed by someone else" in response.content.decode()
    second.refresh_from_db()
    assert second.version == 1
    assert sorted(second.racks.values_list("score", flat=True)) == before


def test_desk_deletes_a_game_only_after_a_confirmation(desk) -> None:
    client, match = desk
    second = match.games.get(number=2)
    confirm = client.get(_url(match, "games/2/delete/"))
    assert confirm.status_code == 200
    assert "Delete game 2?" in confirm.content.decode()
    assert match.games.count() == 3  # asking changes nothing

    stale = client.post(_url(match, "games/2/delete/"), {"version": "9"})
    assert stale.status_code == 412
    assert "changed by someone else" in stale.content.decode()
    assert match.games.filter(number=2).exists()

    done = client.post(_url(match, "games/2/delete/"), {"version": str(second.version)})
    assert done.status_code == 302 and done["Location"] == _url(match)
    assert "Game 2 deleted." in client.get(done["Location"]).content.decode()
    assert list(match.games.values_list("number", flat=True)) == [1, 3]
    assert client.get(_url(match, "games/2/delete/")).status_code == 404
    # The next game fills the gap.
    page = client.get(_url(match)).content.decode()
    assert "Record game 2" in page


def test_desk_history_shows_records_corrections_and_deletions(desk) -> None:
    client, match = desk
    first = match.games.get(number=1)
    client.post(_url(match, "correct/"), _correct_post(match, first, version=1, points="7"))
    client.post(_url(match, "games/3/delete/"), {"version": "1"})
    response = client.get(_url(match))
    history = response.context["history"]
    assert [(h.revision.game_number, h.revision.action) for h in history] == [
        (1, "game.recorded"),
        (2, "game.recorded"),
        (3, "game.recorded"),
        (1, "game.corrected"),
        (3, "game.deleted"),
    ]
    # Racks as they were: the correction's losers have 7 points each.
    corrected = history[3]
    assert [r.points for r in corrected.racks if r is not None] == [0, 7, 7]
    assert all(r is not None for line in history for r in line.racks)
    text = response.content.decode()
    for word in ("Game recorded", "Game corrected", "Game deleted"):
        assert word in text
    # The game and its version in words, not "1 v2".
    assert '<td>1<span class="rev-note">version 2</span></td>' in text
    assert " v1<" not in text and ">v1<" not in text
    assert AuditEvent.objects.filter(match=match).count() == 5


def test_history_is_read_by_the_one_selector_the_api_uses() -> None:
    assert api_matches.game_history_of is game_history_of


@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("anonymous", True, 302),
        ("stranger", True, 403),
        ("stranger", False, 404),
        ("owner", False, 200),
        ("staff", True, 200),
    ],
)
def test_desk_match_permissions(client: Client, who: str, public: bool, status: int) -> None:
    match = match_seated(players=3, public=public)
    play(match, games=1)
    tournament = match.round.tournament
    if who != "anonymous":
        user = {
            "stranger": UserFactory(),
            "owner": tournament.owner,
            "staff": UserFactory(is_staff=True),
        }[who]
        client.force_login(user)
    for url in (_url(match), _url(match, "games/1/delete/")):
        response = client.get(url)
        assert response.status_code == status
        if status == 302:
            assert response["Location"].startswith("/accounts/login/?next=")
    posted = client.post(_url(match, "games/1/delete/"), {"version": "1"})
    assert posted.status_code == (302 if status == 200 else status)
    assert match.games.exists() == (status != 200)


def test_a_match_token_holder_cannot_use_the_desk(client: Client) -> None:
    match = match_seated(players=3)
    play(match, games=1)
    # The token opens the table's own page and records games there...
    assert client.get(f"/m/{match.token}/").status_code == 200
    # ...but not the desk page, nor its corrections and deletions.
    response = client.get(_url(match))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    game = match.games.get()
    for url, data in (
        (_url(match), entry_post(match, _racks(match))),
        (_url(match, "correct/"), _correct_post(match, game, version=1, points="7")),
        (_url(match, "games/1/delete/"), {"version": "1"}),
    ):
        assert client.post(url, data).status_code == 302
    game.refresh_from_db()
    assert game.version == 1 and match.games.count() == 1


def test_desk_match_of_another_tournament_is_404(client: Client) -> None:
    match = match_seated(players=3)
    other = match_seated(players=3)
    client.force_login(match.round.tournament.owner)
    url = f"/t/{match.round.tournament.slug}/organise/tables/{other.pk}/"
    assert client.get(url).status_code == 404
    assert (
        client.get(f"/t/{match.round.tournament.slug}/organise/tables/999999/").status_code == 404
    )


def test_desk_links_each_table_on_the_desk_and_the_round_page(desk) -> None:
    client, match = desk
    slug = match.round.tournament.slug
    assert _url(match) in client.get(f"/t/{slug}/organise/").content.decode()
    assert _url(match) in client.get(f"/t/{slug}/rounds/1/").content.decode()
    assert _url(match) not in Client().get(f"/t/{slug}/rounds/1/").content.decode()


# ----------------------------------------------------------------------------- adjustments


def test_adjustment_deleted_after_a_confirmation(client: Client) -> None:
    match = match_seated(players=3)
    tournament = match.round.tournament
    adjustment = AdjustmentFactory(
        tournament=tournament, player_id=seated_ids(match)[0], points=-5, reason="Late"
    )
    client.force_login(tournament.owner)
    url = f"/t/{tournament.slug}/organise/adjustments/{adjustment.pk}/delete/"
    assert url in client.get(f"/t/{tournament.slug}/organise/").content.decode()
    confirm = client.get(url)
    assert confirm.status_code == 200 and "Delete this adjustment?" in confirm.content.decode()
    assert Adjustment.objects.filter(pk=adjustment.pk).exists()
    done = client.post(url)
    assert done.status_code == 302 and done["Location"] == f"/t/{tournament.slug}/organise/"
    assert "deleted" in client.get(done["Location"]).content.decode()
    assert not Adjustment.objects.filter(pk=adjustment.pk).exists()


def test_a_bye_is_not_deleted_from_the_desk(client: Client) -> None:
    match = match_seated(players=3)
    tournament = match.round.tournament
    bye = AdjustmentFactory(
        tournament=tournament,
        player_id=seated_ids(match)[0],
        points=10,
        reason="Bye",
        kind=Adjustment.Kind.BYE,
        round=match.round,
    )
    client.force_login(tournament.owner)
    response = client.post(
        f"/t/{tournament.slug}/organise/adjustments/{bye.pk}/delete/", follow=True
    )
    assert "re-seat the round instead" in response.content.decode()
    assert Adjustment.objects.filter(pk=bye.pk).exists()


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 302), ("stranger", 403), ("owner", 302), ("staff", 302)]
)
def test_adjustment_delete_permissions(client: Client, who: str, status: int) -> None:
    match = match_seated(players=3)
    tournament = match.round.tournament
    adjustment = AdjustmentFactory(
        tournament=tournament, player_id=seated_ids(match)[0], points=-5, reason="Late"
    )
    if who != "anonymous":
        client.force_login(
            {
                "stranger": UserFactory(),
                "owner": tournament.owner,
                "staff": UserFactory(is_staff=True),
            }[who]
        )
    response = client.post(f"/t/{tournament.slug}/organise/adjustments/{adjustment.pk}/delete/")
    assert response.status_code == status
    assert Adjustment.objects.filter(pk=adjustment.pk).exists() == (
        who in ("anonymous", "stranger")
    )


@pytest.mark.parametrize(
    ("kind", "typed", "stored"),
    [("penalty", "10", -10), ("bonus", "2.5", 2.5), ("penalty", "1,5", -1.5)],
)
def test_adjustment_kind_sets_the_sign(client: Client, kind: str, typed: str, stored) -> None:
    match = match_seated(players=3)
    tournament = match.round.tournament
    client.force_login(tournament.owner)
    response = client.post(
        f"/t/{tournament.slug}/organise/adjustments/",
        {"player": seated_ids(match)[0], "kind": kind, "points": typed, "reason": "Because"},
    )
    assert response.status_code == 302
    assert float(Adjustment.objects.get().points) == stored


@pytest.mark.parametrize("typed", ["-10", "0", "-0.5", "0.00"])
@pytest.mark.parametrize("kind", ["penalty", "bonus"])
def test_adjustment_refuses_a_number_not_above_zero(client: Client, kind: str, typed: str) -> None:
    match = match_seated(players=3)
    tournament = match.round.tournament
    client.force_login(tournament.owner)
    response = client.post(
        f"/t/{tournament.slug}/organise/adjustments/",
        {"player": seated_ids(match)[0], "kind": kind, "points": typed, "reason": "Because"},
    )
    assert response.status_code == 400
    errors = response.context["adjustment_form"].errors["points"]
    assert "Type a number above 0, without a sign" in errors[0]
    assert not Adjustment.objects.exists()


def test_adjustment_not_a_number_is_refused_at_the_field(client: Client) -> None:
    match = match_seated(players=3)
    tournament = match.round.tournament
    client.force_login(tournament.owner)
    response = client.post(
        f"/t/{tournament.slug}/organise/adjustments/",
        {"player": seated_ids(match)[0], "kind": "bonus", "points": "ten", "reason": "Because"},
    )
    assert response.status_code == 400
    assert "must be a number" in response.context["adjustment_form"].errors["points"][0]
    assert not Adjustment.objects.exists()


def test_a_finished_tournament_offers_no_writes_on_the_desk_or_at_the_table(client):
    from tests.tournaments.web.support import play, tournament_played
    from tournaments.models import Tournament

    t = tournament_played(tables=1, games=1)
    match = t.round_set.get().matches.get()
    play(match, games=1, seed=5)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    client.force_login(t.owner)
    frozen = "The tournament is finished: results can no longer be entered or changed."
    desk = client.get(f"/t/{t.slug}/organise/tables/{match.pk}/").content.decode()
    assert frozen in desk and "?correct=" not in desk and "Record game" not in desk
    table = client.get(f"/m/{match.token}/").content.decode()
    assert frozen in table and "Save game" not in table
    page = client.get(f"/t/{t.slug}/organise/").content.decode()
    assert "reopen it to change its players" in page and "Add adjustment" not in page


def test_desk_history_shows_confirmations_disputes_and_restoring(client: Client) -> None:
    match = match_seated(players=3, confirmation="double_entry", games_per_round=2)
    match.round.tournament.refresh_from_db()
    a, b, c = seated_ids(match)

    def enter(points: int) -> Game:
        racks = [RackIn(player=a, tiles=""), RackIn(player=b, points=points), RackIn(c, points=4)]
        # Each entry from another phone at the table's page.
        return game_enter(
            match=match,
            ending="rummikub",
            racks=racks,
            number=1,
            user=AnonymousUser(),
            source=phone(),
        ).game

    enter(10)
    game = enter(11)
    owner = match.round.tournament.owner
    game_confirm(game=game, user=owner, take="first")
    game_delete(game=Game.objects.get(pk=game.pk), user=owner)
    deletion = AuditEvent.objects.get(action=AuditEvent.Action.GAME_DELETED)
    game_restore(event=deletion, user=owner)
    client.force_login(owner)
    response = client.get(_url(match))
    history = response.context["history"]
    assert [h.revision.action for h in history] == [
        "game.recorded",
        "game.disputed",
        "game.confirmed",
        "game.deleted",
        "game.restored",
    ]
    assert not any(h.restorable for h in history)  # it is back
    text = response.content.decode()
    for words in ("Game disputed", "the second entry differs", "Game confirmed", "Game restored"):
        assert words in text
    assert "at the table" in text and owner.username in text
    restored = history[-1]
    assert [r.points for r in restored.racks if r is not None] == [0, 10, 4]

"""A tournament's settings on the web: creating one, editing it (scoring settings kept
once results exist), co-organisers, finishing and reopening, and who may do what."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import ClubFactory, TournamentFactory, UserFactory, match_seated
from tests.tournaments.web.support import play
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def form_post(**changes: Any) -> dict[str, Any]:
    """A complete settings form as a browser posts it (the defaults), with changes."""
    data: dict[str, Any] = {
        "name": "Spring Cup",
        "date": "2026-04-18",
        "club": "",
        "public": "on",
        "language": "en",
        "paper": "A4",
        "joker_penalty": "30",
        "pool_tie": "share",
        "table_points_2": "4 0",
        "table_points_3": "4 2 0",
        "table_points_4": "4 3 1 0",
        "ranking": "score",
        "tie_breaks": "wins, table_points",
        "min_games": "0",
        "rounds": "3",
        "games_per_round": "4",
        "seating": "swiss",
        "max_table_size": "4",
        "bye_score": "0",
        "semifinal_players": "0",
        "semifinal_games": "",
        "final_games": "",
        "final_first_to": "0",
        "carry_over": "0",
        "final_from": "semifinal_winners",
        "loss_cap": "",
        "winner_bonus": "0",
        "runner_up_bonus": "0",
        "turn_seconds": "60",
        "round_minutes": "0",
        "confirmation": "none",
        "standings_unconfirmed": "include",
        "co_organisers": "",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def form_of(tournament: Tournament) -> dict[str, Any]:
    """The edit page's form as it is shown, ready to post back."""
    return dict(
        form_post(
            name=tournament.name,
            date="",
            public="on" if tournament.public else None,
            joker_penalty=str(tournament.joker_penalty),
            pool_tie=tournament.pool_tie,
            ranking=tournament.ranking,
            tie_breaks=", ".join(tournament.tie_breaks),
            rounds=str(tournament.rounds),
            games_per_round=str(tournament.games_per_round),
            seating=tournament.seating,
            confirmation=tournament.confirmation,
            standings_unconfirmed=tournament.standings_unconfirmed,
        )
    )


# ----------------------------------------------------------------------------- create


def test_new_tournament_needs_a_login(client: Client) -> None:
    response = client.get("/t/new/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert client.post("/t/new/", form_post()).status_code == 302
    assert not Tournament.objects.exists()


def test_any_user_creates_a_tournament_and_lands_on_its_desk(client: Client) -> None:
    user, helper = UserFactory(), UserFactory(username="ann")
    club = ClubFactory(created_by=user)  # a club one may name: one's own
    client.force_login(user)
    page = client.get("/t/new/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'value="4 3 1 0"' in html and "head_to_head" in html  # defaults and help text
    response = client.post(
        "/t/new/",
        form_post(
            club=str(club.pk),
            public=None,
            table_points_4="5, 3, 1, 0",
            semifinal_players="8",
            carry_over="1",
            co_organisers="ann",
        ),
    )
    t = Tournament.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/t/{t.slug}/organise/"
    assert (t.slug, t.owner, t.club, t.public) == ("spring-cup", user, club, False)
    assert t.table_points["4"] == [5, 3, 1, 0] and t.tie_breaks == ["wins", "table_points"]
    assert (t.semifinal_players, t.carry_over) == (8, "1")
    # Invited, not added: ann organises once she accepts.
    assert list(t.co_organisers.all()) == []
    assert list(t.invitations.values_list("username", flat=True)) == [helper.username]
    desk = client.get(response["Location"]).content.decode()
    assert "Tournament “Spring Cup” created." in desk
    assert "Invited to co-organise: ann." in desk
    assert f'href="/t/{t.slug}/edit/"' in desk


BAD: list[tuple[dict[str, Any], str, str]] = [
    ({"name": ""}, "name", "required"),
    ({"name": "   "}, "name", "required"),
    ({"date": "someday"}, "date", "date"),
    ({"club": "999999"}, "club", "valid choice"),
    ({"language": "xx"}, "language", "valid choice"),
    ({"joker_penalty": "lots"}, "joker_penalty", "whole number"),
    ({"joker_penalty": "5000"}, "joker_penalty", "at most 1000"),
    ({"joker_penalty": "-5"}, "joker_penalty", "negative"),
    ({"pool_tie": "coin_toss"}, "pool_tie", "valid choice"),
    ({"table_points_4": "4 3 x 0"}, "table_points_4", "whole numbers"),
    ({"table_points_4": "1 3 0 0"}, "table_points_4", "must not grow"),
    ({"table_points_3": "4 2"}, "table_points_3", "need 3 whole numbers"),
    ({"table_points_2": ""}, "table_points_2", "required"),
    ({"tie_breaks": "wins, luck"}, "tie_breaks", "Unknown tie-break luck"),
    ({"tie_breaks": "wins wins"}, "tie_breaks", "twice"),
    ({"rounds": "101"}, "rounds", "0 to 100"),
    ({"games_per_round": "0"}, "games_per_round", "1 to 30"),
    ({"max_table_size": "5"}, "max_table_size", "valid choice"),
    ({"bye_score": "lots"}, "bye_score", "number"),
    ({"min_games": "1000000"}, "min_games", "32767"),
    ({"co_organisers": "me"}, "co_organisers", "owner"),
]


@pytest.mark.parametrize(("changes", "field", "fragment"), BAD)
def test_create_refuses_a_bad_field_at_the_field_and_stores_nothing(
    client: Client, changes: dict[str, Any], field: str, fragment: str
) -> None:
    UserFactory(username="ann")
    client.force_login(UserFactory(username="me"))
    response = client.post("/t/new/", form_post(**changes))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field], errors
    assert fragment in errors[field][0]
    assert "field-error" in response.content.decode()
    assert not Tournament.objects.exists()


def test_create_refuses_every_bad_field_at_once(client: Client) -> None:
    client.force_login(UserFactory(username="me"))
    bad = {
        "joker_penalty": ("5000", "at most 1000"),
        "rounds": ("101", "0 to 100"),
        "games_per_round": ("31", "1 to 30"),
        "min_games": ("-1", "greater than or equal to 0"),
        "semifinal_players": ("99999", "32767"),
        "bye_score": ("123456789012", "digits"),
        "table_points_4": ("1 3 0 0", "must not grow"),
        "tie_breaks": ("wins, luck", "Unknown tie-break luck"),
    }
    response = client.post("/t/new/", form_post(**{k: v for k, (v, _) in bad.items()}))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert sorted(errors) == sorted(bad)
    for field, (_value, fragment) in bad.items():
        assert fragment in errors[field][0], (field, errors[field])
    html = response.content.decode()
    # The same bounds for the browser's number inputs (the form itself is novalidate).
    assert 'name="rounds" value="101" class="num" inputmode="numeric" min="0" max="100"' in html
    assert 'inputmode="numeric" min="1" max="30"' in html
    assert 'id="id_rounds_helptext"' in html  # the input's aria-describedby
    assert not Tournament.objects.exists()


# ----------------------------------------------------------------------------- edit


@pytest.fixture
def played() -> tuple[Tournament, Match]:
    """A tournament with one game recorded."""
    match = match_seated(players=4, games_per_round=2)
    play(match, games=1)
    return match.round.tournament, match


def test_edit_shows_the_settings_and_saves_changes(client: Client) -> None:
    t = TournamentFactory(joker_penalty=25, rounds=4)
    client.force_login(t.owner)
    page = client.get(f"/t/{t.slug}/edit/")
    assert page.status_code == 200
    assert page.context["form"].initial["joker_penalty"] == 25
    response = client.post(
        f"/t/{t.slug}/edit/", form_of(t) | {"joker_penalty": "50", "name": "Renamed"}
    )
    assert response.status_code == 302 and response["Location"] == f"/t/{t.slug}/organise/"
    t.refresh_from_db()
    assert (t.joker_penalty, t.name, t.rounds) == (50, "Renamed", 4)
    assert "Settings saved." in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize(
    ("changes", "field", "fragment"),
    [
        ({"joker_penalty": "25"}, "joker_penalty", "a new joker penalty would change scores"),
        ({"pool_tie": "fewest_tiles"}, "pool_tie", "a new tie policy"),
        ({"table_points_4": "5 3 1 0"}, "table_points_4", "new table points"),
    ],
)
def test_edit_refuses_score_changing_settings_once_results_exist(
    client: Client, played, changes: dict[str, Any], field: str, fragment: str
) -> None:
    t, _match = played
    client.force_login(t.owner)
    assert "Results exist" in client.get(f"/t/{t.slug}/edit/").content.decode()
    response = client.post(f"/t/{t.slug}/edit/", form_of(t) | changes | {"rounds": "7"})
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert errors[field][0].startswith("Results exist:") and fragment in errors[field][0]
    t.refresh_from_db()
    assert (t.joker_penalty, t.pool_tie, t.table_points["4"], t.rounds) == (
        30,
        "share",
        [4, 3, 1, 0],
        3,
    )


def test_plan_settings_stay_editable_after_results(client: Client, played) -> None:
    t, _match = played
    client.force_login(t.owner)
    changes = {
        "rounds": "5",
        "games_per_round": "3",
        "seating": "balanced",
        "semifinal_players": "8",
        "ranking": "table_points",
    }
    assert client.post(f"/t/{t.slug}/edit/", form_of(t) | changes).status_code == 302
    t.refresh_from_db()
    assert (t.rounds, t.games_per_round, t.seating) == (5, 3, "balanced")
    assert (t.semifinal_players, t.ranking) == (8, "table_points")


# ----------------------------------------------------------------------------- co-organisers


def test_a_co_organiser_organises_that_tournament_only_until_removed(client: Client) -> None:
    t = TournamentFactory(public=False, name="Secret Cup")
    elsewhere = TournamentFactory(public=False)
    ann = UserFactory(username="ann")
    client.force_login(t.owner)
    assert (
        client.post(f"/t/{t.slug}/edit/", form_of(t) | {"co_organisers": "ann"}).status_code == 302
    )
    assert list(t.co_organisers.all()) == []  # invited until she accepts
    client.force_login(ann)
    invitation = t.invitations.get()
    assert client.post(f"/invitations/{invitation.pk}/accept/").status_code == 302
    assert list(t.co_organisers.all()) == [ann]

    home = client.get("/").content.decode()
    assert "My tournaments" in home and "Secret Cup" in home and "co-organiser" in home
    assert client.get(f"/t/{t.slug}/").status_code == 200
    assert client.get(f"/t/{t.slug}/organise/").status_code == 200
    assert (
        client.post(
            f"/t/{t.slug}/edit/", form_of(t) | {"rounds": "6", "co_organisers": "ann"}
        ).status_code
        == 302
    )
    assert client.get(f"/t/{elsewhere.slug}/").status_code == 404
    assert client.get(f"/t/{elsewhere.slug}/organise/").status_code == 404

    client.force_login(t.owner)
    t.refresh_from_db()
    assert client.post(f"/t/{t.slug}/edit/", form_of(t) | {"co_organisers": ""}).status_code == 302
    client.force_login(ann)
    assert client.get(f"/t/{t.slug}/").status_code == 404
    assert client.get(f"/t/{t.slug}/organise/").status_code == 404
    assert "Secret Cup" not in client.get("/").content.decode()
    t.refresh_from_db()
    assert t.rounds == 6


def test_home_lists_my_tournaments_and_offers_a_new_one(client: Client) -> None:
    me = UserFactory()
    mine = TournamentFactory(owner=me, name="Owned Cup")
    helped = TournamentFactory(name="Helped Cup")
    helped.co_organisers.add(me)
    TournamentFactory(name="Other Cup")
    assert "/t/new/" not in client.get("/").content.decode()
    client.force_login(me)
    response = client.get("/")
    assert list(response.context["mine"]) == [mine, helped] or set(response.context["mine"]) == {
        mine,
        helped,
    }
    html = response.content.decode()
    assert 'href="/t/new/"' in html
    assert (
        f'href="/t/{mine.slug}/organise/"' in html and f'href="/t/{helped.slug}/organise/"' in html
    )


# ----------------------------------------------------------------------------- finish


def test_finish_asks_first_and_is_refused_while_tables_play(client: Client, played) -> None:
    t, match = played
    client.force_login(t.owner)
    confirm = client.get(f"/t/{t.slug}/finish/")
    assert confirm.status_code == 200 and "Finish tournament" in confirm.content.decode()
    response = client.post(f"/t/{t.slug}/finish/", follow=True)
    assert "table 1 still has games to play" in response.content.decode()
    t.refresh_from_db()
    assert t.status != Tournament.Status.FINISHED

    play(match, games=1, seed=2)
    desk = client.post(f"/t/{t.slug}/finish/", follow=True).content.decode()
    assert "The tournament is finished" in desk
    assert f'action="/t/{t.slug}/reopen/"' in desk
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert client.get(f"/t/{t.slug}/reopen/").status_code == 405
    desk = client.post(f"/t/{t.slug}/reopen/", follow=True).content.decode()
    assert "open again" in desk and f'href="/t/{t.slug}/finish/"' in desk
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


# ----------------------------------------------------------------------------- permissions

ACTIONS = [
    ("get", "edit/"),
    ("post", "edit/"),
    ("get", "finish/"),
    ("post", "finish/"),
    ("post", "reopen/"),
]


@pytest.mark.parametrize("public", [True, False])
@pytest.mark.parametrize(("method", "path"), ACTIONS)
@pytest.mark.parametrize("who", ["anonymous", "another user", "owner", "co-organiser", "staff"])
def test_permissions(client: Client, who: str, public: bool, method: str, path: str) -> None:
    t = TournamentFactory(public=public, status=Tournament.Status.FINISHED)
    co = UserFactory()
    t.co_organisers.add(co)
    user = {
        "anonymous": None,
        "another user": UserFactory(),
        "owner": t.owner,
        "co-organiser": co,
        "staff": UserFactory(is_staff=True),
    }[who]
    if user is not None:
        client.force_login(user)
    data = form_of(t) | {"co_organisers": co.username} if path == "edit/" else {}
    response = getattr(client, method)(f"/t/{t.slug}/{path}", data)
    if who == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
    elif who == "another user":
        assert response.status_code == (403 if public else 404)
    else:
        assert response.status_code == (200 if method == "get" else 302)
    t.refresh_from_db()
    changed = who not in ("anonymous", "another user") and method == "post"
    if path == "reopen/":
        assert (t.status == Tournament.Status.RUNNING) == changed


@pytest.mark.parametrize("language", ["", "/da", "/de", "/nl"])
def test_the_date_field_keeps_the_date_in_every_language(client: Client, language: str) -> None:
    """A date input takes ``yyyy-mm-dd`` whatever the page's language: a
    localised value (``21.11.2026``) would show empty and be saved as none."""
    import datetime

    t = TournamentFactory(date=datetime.date(2026, 11, 21))
    client.force_login(t.owner)
    page = client.get(f"{language}/t/{t.slug}/edit/").content.decode()
    assert 'value="2026-11-21"' in page
    response = client.post(f"{language}/t/{t.slug}/edit/", form_of(t) | {"date": "2026-11-21"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.date == datetime.date(2026, 11, 21)

"""The web pages: who may see what, the result-entry form, exports, languages,
and the query counts of the list pages."""

from __future__ import annotations

import csv
import io
import json
import random

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import (
    AdjustmentFactory,
    ClubFactory,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    match_seated,
    seated_ids,
)
from tournaments.models import Adjustment, Entry, Game, Match, Round, Seat, Tournament
from tournaments.services.games import RackEntry, game_record

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings) -> None:
    # The factories hash a password for every user; PBKDF2 costs ~0.3 s each.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def play(match: Match, *, games: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    ids = seated_ids(match)
    for _ in range(games):
        winner = rng.randrange(len(ids))
        game_record(
            match=match,
            ending="rummikub",
            racks=[
                RackEntry(player=p, points=0 if i == winner else rng.randint(1, 40), jokers=0)
                for i, p in enumerate(ids)
            ],
        )


def tournament_played(*, tables: int, rounds: int = 1, games: int = 2, **kwargs) -> Tournament:
    """``rounds`` rounds of ``tables`` four-player tables, ``games`` games played at each."""
    tournament = TournamentFactory(**kwargs)
    players = PlayerFactory.create_batch(tables * 4)
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    for number in range(1, rounds + 1):
        round_ = RoundFactory(tournament=tournament, number=number)
        order = random.Random(number).sample(players, len(players))
        for table in range(1, tables + 1):
            match = MatchFactory(round=round_, table=table)
            Seat.objects.bulk_create(
                Seat(match=match, round=round_, player=p, position=i)
                for i, p in enumerate(order[(table - 1) * 4 : table * 4], start=1)
            )
            play(match, games=games, seed=number * 100 + table)
    return tournament


def entry_post(match: Match, racks: dict[int, dict[str, str]], ending: str = "rummikub") -> dict:
    data = {"ending": ending}
    positions = {s.player_id: s.position for s in match.seats.all()}
    for player, fields in racks.items():
        for name, value in fields.items():
            data[f"p{positions[player]}_{name}"] = value
    return data


# --------------------------------------------------------------------------- public pages


def test_home_lists_visible_tournaments_clubs_and_tools(client: Client) -> None:
    public = TournamentFactory(name="Open Night", club=ClubFactory(name="Aarhus RC"))
    TournamentFactory(name="Secret Cup", public=False)
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Open Night" in text and "Secret Cup" not in text
    assert "Aarhus RC" in text
    assert reverse("web:calculator") in text
    assert reverse("web:tournament", args=[public.slug]) in text


def test_home_shows_own_private_tournament_to_its_owner(client: Client) -> None:
    owner = UserFactory()
    TournamentFactory(name="Secret Cup", public=False, owner=owner)
    client.force_login(owner)
    assert "Secret Cup" in client.get("/").content.decode()


def test_tournament_page_shows_rules_rounds_and_standings(client: Client) -> None:
    match = match_seated(players=4, joker_penalty=25, pool_tie="fewest_tiles")
    play(match, games=2)
    tournament = match.round.tournament
    response = client.get(f"/t/{tournament.slug}/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "25 points" in text
    assert "Fewest tiles wins" in text
    assert "Round 1" in text and "Table 1" in text
    for seat in match.seats.select_related("player"):
        assert seat.player.name in text
    # The private entry link is for organisers only.
    assert match.token not in text


def test_tournament_page_links_entry_pages_for_its_organiser(client: Client) -> None:
    match = match_seated(players=3)
    client.force_login(match.round.tournament.owner)
    text = client.get(f"/t/{match.round.tournament.slug}/").content.decode()
    assert f"/m/{match.token}/" in text
    assert reverse("web:organise", args=[match.round.tournament.slug]) in text


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 404), ("stranger", 404), ("owner", 200), ("staff", 200)]
)
def test_private_tournament_pages_are_hidden_from_others(client: Client, who: str, status: int):
    tournament = TournamentFactory(public=False)
    if who == "stranger":
        client.force_login(UserFactory())
    elif who == "owner":
        client.force_login(tournament.owner)
    elif who == "staff":
        client.force_login(UserFactory(is_staff=True))
    assert client.get(f"/t/{tournament.slug}/").status_code == status
    assert client.get(f"/t/{tournament.slug}/standings/").status_code == status
    assert client.get(f"/t/{tournament.slug}/standings/?_export=csv").status_code == status


def test_unknown_tournament_and_token_are_404(client: Client) -> None:
    assert client.get("/t/no-such-thing/").status_code == 404
    assert client.get("/t/no-such-thing/standings/").status_code == 404
    assert client.get("/m/not-a-token/").status_code == 404
    assert client.post("/m/not-a-token/", {"ending": "rummikub"}).status_code == 404


# --------------------------------------------------------------------------- standings


@pytest.fixture
def standings_tournament() -> Tournament:
    match = match_seated(players=4, slug="spring-cup")
    play(match, games=3)
    AdjustmentFactory(tournament=match.round.tournament, player_id=seated_ids(match)[0], points=-5)
    return match.round.tournament


def test_standings_page_sorts_by_a_column(client: Client, standings_tournament) -> None:
    response = client.get("/t/spring-cup/standings/?sort=name")
    assert response.status_code == 200
    names = [row.name for row in response.context["table"].data]
    assert names == sorted(names)
    rows = client.get("/t/spring-cup/standings/?sort=-rack_total").context["table"].data
    totals = [row.rack_total for row in rows]
    assert totals == sorted(totals, reverse=True)
    assert client.get("/t/spring-cup/standings/?sort=bogus&page=x").status_code == 200


def test_standings_export_csv(client: Client, standings_tournament) -> None:
    response = client.get("/t/spring-cup/standings/?_export=csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="spring-cup-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["#", "Player", "Club", "Score"]
    assert len(rows) == 1 + 4
    assert sum(float(r[3]) for r in rows[1:]) == -5  # games sum to zero; the penalty stays


def test_standings_export_xlsx(client: Client, standings_tournament) -> None:
    response = client.get("/t/spring-cup/standings/?_export=xlsx")
    assert response.status_code == 200
    assert response["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet.max_row == 1 + 4


def test_standings_export_ods_and_json(client: Client, standings_tournament) -> None:
    ods = client.get("/t/spring-cup/standings/?_export=ods")
    assert ods.status_code == 200
    assert ods["Content-Type"] == "application/vnd.oasis.opendocument.spreadsheet"
    assert ods.content[:2] == b"PK"
    response = client.get("/t/spring-cup/standings/?_export=json")
    assert response["Content-Type"] == "application/json"
    rows = json.loads(response.content)
    assert len(rows) == 4 and {"#", "Player", "Score"} <= set(rows[0])


def test_unsupported_export_format_shows_the_page(client: Client, standings_tournament) -> None:
    for bad in ("xls", "yaml", "latex", "nonsense"):
        response = client.get(f"/t/spring-cup/standings/?_export={bad}")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/html")


# --------------------------------------------------------------------------- query counts


@pytest.mark.parametrize("tables", [1, 8])
def test_tournament_page_query_count_does_not_grow(
    client: Client, tables: int, django_assert_max_num_queries
) -> None:
    tournament = tournament_played(tables=tables, rounds=2)
    # tournament, round list, rounds + matches + seats + games + racks, standings (3)
    with django_assert_max_num_queries(10):
        response = client.get(f"/t/{tournament.slug}/")
    assert response.status_code == 200
    assert len(response.context["standings"]) == min(10, tables * 4)
    client.force_login(tournament.owner)  # + session and user
    with django_assert_max_num_queries(12):
        assert client.get(f"/t/{tournament.slug}/").status_code == 200
    # + entries, players not entered, round list, the latest round (5), seating history,
    # adjustments
    with django_assert_max_num_queries(13):
        assert client.get(f"/t/{tournament.slug}/organise/").status_code == 200


@pytest.mark.parametrize("tables", [1, 8])
def test_standings_page_query_count_does_not_grow(
    client: Client, tables: int, django_assert_max_num_queries
) -> None:
    tournament = tournament_played(tables=tables)
    with django_assert_max_num_queries(4):
        response = client.get(f"/t/{tournament.slug}/standings/")
    assert response.status_code == 200
    assert len(response.context["table"].rows) == tables * 4
    with django_assert_max_num_queries(4):
        assert client.get(f"/t/{tournament.slug}/standings/?_export=csv").status_code == 200


def test_match_page_query_count(client: Client, django_assert_max_num_queries) -> None:
    match = match_seated(players=4)
    play(match, games=3)
    with django_assert_max_num_queries(6):
        assert client.get(f"/m/{match.token}/").status_code == 200


# --------------------------------------------------------------------------- entry page


def test_entry_page_shows_table_round_and_players_in_seat_order(client: Client) -> None:
    match = match_seated(players=3)
    text = client.get(f"/m/{match.token}/").content.decode()
    names = [s.player.name for s in match.seats.select_related("player").order_by("position")]
    positions = [text.index(n) for n in names]
    assert positions == sorted(positions)
    assert "Table 1" in text and "Round 1" in text
    assert "Record game 1" in text


def test_entry_form_records_a_game_and_shows_the_scores(client: Client) -> None:
    match = match_seated(players=4)
    a, b, c, d = seated_ids(match)
    data = entry_post(
        match,
        {a: {"tiles": ""}, b: {"tiles": "r5 j"}, c: {"points": "16"}, d: {"points": "3"}},
    )
    response = client.post(f"/m/{match.token}/", data)
    assert response.status_code == 302
    assert response["Location"] == f"/m/{match.token}/"
    page = client.get(response["Location"])
    text = page.content.decode()
    assert "Game 1 recorded." in text
    assert "+54" in text and "-35" in text and "R5 J" in text
    assert "Record game 2" in text
    game = Game.objects.get(match=match)
    assert sorted(game.racks.values_list("score", flat=True)) == [-35, -16, -3, 54]


def test_entry_form_refuses_a_bad_game_with_the_message_and_stores_nothing(client: Client):
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    data = entry_post(match, {a: {"tiles": ""}, b: {"tiles": "R14"}, c: {"points": "4"}})
    response = client.post(f"/m/{match.token}/", data)
    assert response.status_code == 400
    assert not Game.objects.exists()
    form = response.context["form"]
    position = match.seats.get(player_id=b).position
    errors = form.errors[f"p{position}_tiles"]
    assert errors == [
        f"Rack 2 ({match.seats.get(player_id=b).player.name}): unknown tile “R14”: "
        "numbers run from 1 to 13."
    ]
    assert "R14" in response.content.decode()  # what was typed is kept


@pytest.mark.parametrize(
    ("racks", "ending", "field", "fragment"),
    [
        ({0: {}, 1: {}, 2: {"points": "3"}}, "rummikub", "__all__", "exactly one empty rack"),
        ({0: {}, 1: {"points": "2"}, 2: {"points": "3"}}, "pool_exhausted", "p1_tiles", "empty"),
        ({0: {}, 1: {"points": "-2"}, 2: {"points": "3"}}, "rummikub", "p2_tiles", "negative"),
        ({0: {}, 1: {"jokers": "2"}, 2: {"jokers": "1"}}, "rummikub", "__all__", "3 jokers"),
        ({0: {}, 1: {"points": "x"}, 2: {"points": "3"}}, "rummikub", "p2_points", "whole"),
        ({0: {}, 1: {"points": "2"}, 2: {"points": "3"}}, "draw", "ending", "valid choice"),
    ],
)
def test_entry_form_refusals(client: Client, racks, ending, field, fragment) -> None:
    match = match_seated(players=3)
    ids = seated_ids(match)
    data = entry_post(match, {ids[i]: v for i, v in racks.items()}, ending=ending)
    response = client.post(f"/m/{match.token}/", data)
    assert response.status_code == 400
    assert fragment in " ".join(response.context["form"].errors[field])
    assert not Game.objects.exists()


def test_entry_form_is_gone_when_every_game_is_recorded(client: Client) -> None:
    match = match_seated(players=2, games_per_round=1)
    play(match, games=1)
    response = client.get(f"/m/{match.token}/")
    assert response.context["form"] is None
    assert "All 1 games of this table are recorded" in response.content.decode()
    a, b = seated_ids(match)
    refused = client.post(f"/m/{match.token}/", entry_post(match, {a: {}, b: {"points": "3"}}))
    assert refused.status_code == 400
    assert "all are recorded" in refused.content.decode()
    assert Game.objects.count() == 1


def test_correcting_the_last_game(client: Client) -> None:
    match = match_seated(players=2)
    play(match, games=1)
    game = Game.objects.get()
    a, b = seated_ids(match)
    data = {
        f"fix-{k}": v for k, v in entry_post(match, {a: {"points": "7"}, b: {"tiles": ""}}).items()
    }
    data.update({"fix-game": "1", "fix-version": str(game.version)})
    # The token alone records games; corrections are the organiser's, as in the API.
    assert client.post(f"/m/{match.token}/correct/", data).status_code == 403
    assert "Correct game 1" not in client.get(f"/m/{match.token}/").content.decode()
    client.force_login(match.round.tournament.owner)
    assert "Correct game 1" in client.get(f"/m/{match.token}/").content.decode()
    response = client.post(f"/m/{match.token}/correct/", data)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version == 2
    assert {r.player_id: r.score for r in game.racks.all()} == {a: -7, b: 7}

    stale = client.post(f"/m/{match.token}/correct/", data)  # still says version 1
    assert stale.status_code == 400
    assert "changed by someone else" in stale.content.decode()
    game.refresh_from_db()
    assert game.version == 2


def test_entry_page_in_german_refuses_with_a_german_message(client: Client) -> None:
    match = match_seated(players=3)
    a, b, c = seated_ids(match)
    data = entry_post(match, {a: {"tiles": ""}, b: {"tiles": "R14"}, c: {"points": "4"}})
    response = client.post(f"/de/m/{match.token}/", data)
    assert response.status_code == 400
    text = response.content.decode()
    assert 'lang="de"' in text
    assert "unbekannter Stein „R14“: die Zahlen reichen von 1 bis 13." in text
    assert not Game.objects.exists()
    ok = entry_post(match, {a: {"tiles": ""}, b: {"tiles": "R13"}, c: {"points": "4"}})
    assert client.post(f"/de/m/{match.token}/", ok)["Location"] == f"/de/m/{match.token}/"


# --------------------------------------------------------------------------- calculator


def test_calculator_blank_and_scored(client: Client) -> None:
    assert client.get("/calculator/").status_code == 200
    response = client.get(
        "/calculator/",
        {
            "ending": "rummikub",
            "joker_penalty": "30",
            "pool_tie": "share",
            "p1_name": "Anna",
            "p2_name": "Ben",
            "p2_tiles": "R5 J",
            "p3_name": "Cleo",
            "p3_points": "16",
            "p4_name": "Dan",
            "p4_points": "3",
        },
    )
    assert response.status_code == 200
    assert [(r["player"], r["score"]) for r in response.context["rows"]] == [
        ("Anna", 54),
        ("Ben", -35),
        ("Cleo", -16),
        ("Dan", -3),
    ]


def test_calculator_refusal_uses_the_rules_engine_message(client: Client) -> None:
    from scoring import rules

    params = {"ending": "rummikub", "joker_penalty": "30", "pool_tie": "share"}
    two_empty = client.get("/calculator/", {**params, "players": "2", "p1_name": "Anna"})
    assert two_empty.status_code == 400
    with pytest.raises(rules.RuleError) as refused:
        rules.game_score(
            ending="rummikub",
            racks=[rules.RackIn(player="Anna", tiles=""), rules.RackIn(player="B", tiles="")],
        )
    assert two_empty.context["form"].non_field_errors() == [refused.value.render()]
    negative = client.get("/calculator/", {**params, "joker_penalty": "-1", "p1_name": "A"})
    assert "cannot be negative" in negative.context["form"].errors["joker_penalty"][0]


def test_calculator_blank_rows_are_empty_racks_up_to_the_number_of_players(client) -> None:
    params = {"ending": "rummikub", "joker_penalty": "30", "pool_tie": "share"}
    # No names typed, the winner's row (2) left blank, three players at the table.
    response = client.get(
        "/calculator/", {**params, "players": "3", "p1_points": "5", "p3_points": "3"}
    )
    assert response.status_code == 200
    assert [(r["player"], r["score"]) for r in response.context["rows"]] == [
        ("Player 1", -5),
        ("Player 2", 8),
        ("Player 3", -3),
    ]


# --------------------------------------------------------------------------- organiser pages


@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("stranger", True, 403),
        ("stranger", False, 404),
        ("owner", False, 200),
        ("staff", True, 200),
    ],
)
def test_organise_page_permissions(client: Client, who: str, public: bool, status: int) -> None:
    tournament = TournamentFactory(public=public)
    user = {
        "stranger": UserFactory(),
        "owner": tournament.owner,
        "staff": UserFactory(is_staff=True),
    }[who]
    client.force_login(user)
    assert client.get(f"/t/{tournament.slug}/organise/").status_code == status
    posted = client.post(f"/t/{tournament.slug}/organise/seat/")
    assert posted.status_code == (302 if status == 200 else status)


def test_organise_page_sends_anonymous_visitors_to_log_in(client: Client) -> None:
    tournament = TournamentFactory()
    response = client.get(f"/t/{tournament.slug}/organise/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    assert client.post(f"/t/{tournament.slug}/organise/seat/").status_code == 302
    assert not Round.objects.exists()


@pytest.fixture
def organiser(client: Client) -> tuple[Client, Tournament]:
    tournament = TournamentFactory(slug="club-night", rounds=2, games_per_round=1)
    client.force_login(tournament.owner)
    return client, tournament


def test_organiser_enters_players_and_seats_a_round(organiser) -> None:
    client, tournament = organiser
    players = PlayerFactory.create_batch(5)
    response = client.post("/t/club-night/organise/entries/", {"players": [p.pk for p in players]})
    assert response.status_code == 302
    assert Entry.objects.filter(tournament=tournament).count() == 5
    response = client.post("/t/club-night/organise/seat/", follow=True)
    assert "Round 1 seated." in response.content.decode()
    round_ = Round.objects.get(tournament=tournament)
    assert sum(m.seats.count() for m in round_.matches.all()) == 5
    page = client.get("/t/club-night/organise/").content.decode()
    for match in round_.matches.all():
        assert f"/m/{match.token}/" in page


def test_organiser_refused_seating_is_a_message(organiser) -> None:
    client, _tournament = organiser
    response = client.post("/t/club-night/organise/seat/", follow=True)
    assert "at least 2 active players" in response.content.decode()
    assert not Round.objects.exists()


def test_organiser_withdraws_checks_out_and_checks_in(organiser) -> None:
    client, tournament = organiser
    player = PlayerFactory()
    Entry.objects.create(tournament=tournament, player=player)
    base = f"/t/club-night/organise/players/{player.pk}"
    assert client.post(f"{base}/withdraw/").status_code == 302
    assert Entry.objects.get(player=player).status == Entry.Status.WITHDRAWN
    assert client.post(f"{base}/check-in/").status_code == 302
    assert Entry.objects.get(player=player).status == Entry.Status.ACTIVE
    assert client.post(f"{base}/check-out/").status_code == 302
    assert Entry.objects.get(player=player).status == Entry.Status.ABSENT
    assert client.get(f"{base}/withdraw/").status_code == 405
    assert client.post("/t/club-night/organise/players/999999/withdraw/").status_code == 404


def test_organiser_reseats_an_unplayed_round(organiser) -> None:
    client, tournament = organiser
    players = PlayerFactory.create_batch(4)
    Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in players)
    client.post("/t/club-night/organise/seat/")
    response = client.post("/t/club-night/organise/rounds/1/reseat/", follow=True)
    assert "Round 1 re-seated." in response.content.decode()
    assert client.post("/t/club-night/organise/rounds/7/reseat/").status_code == 404


def test_organiser_adds_an_adjustment_and_a_refused_one_shows_why(organiser) -> None:
    client, tournament = organiser
    player = PlayerFactory()
    Entry.objects.create(tournament=tournament, player=player)
    url = "/t/club-night/organise/adjustments/"
    ok = client.post(
        url, {"player": player.pk, "kind": "penalty", "points": "-10", "reason": "Late"}
    )
    assert ok.status_code == 302
    assert Adjustment.objects.get().points == -10
    bad = client.post(url, {"player": player.pk, "kind": "penalty", "points": "5", "reason": "x"})
    assert bad.status_code == 400
    assert "enter a negative number" in bad.context["adjustment_form"].errors["points"][0]
    assert Adjustment.objects.count() == 1


# --------------------------------------------------------------------------- login, languages


def test_login_and_logout(client: Client) -> None:
    UserFactory(username="olga")
    assert client.get("/accounts/login/").status_code == 200
    response = client.post(
        "/accounts/login/", {"username": "olga", "password": "secret-pass-123", "next": "/"}
    )
    assert response.status_code == 302
    assert "Log out (olga)" in client.get("/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert "Log in" in client.get("/").content.decode()


@pytest.mark.parametrize("lang", ["da", "sv", "nb", "de", "nl"])
def test_every_page_has_a_language_prefix(client: Client, lang: str) -> None:
    match = match_seated(players=2, slug="cup")
    for path in ("/", "/t/cup/", "/t/cup/standings/", "/calculator/", f"/m/{match.token}/"):
        response = client.get(f"/{lang}{path}")
        assert response.status_code == 200, path
        assert f'lang="{lang}"' in response.content.decode()


def test_english_has_no_prefix_and_unknown_languages_404(client: Client) -> None:
    assert 'lang="en"' in client.get("/").content.decode()
    assert client.get("/en/").status_code == 404
    assert client.get("/fr/").status_code == 404
    with translation.override("de"):
        assert reverse("web:standings", args=["cup"]) == "/de/t/cup/standings/"


def test_language_switcher_goes_to_the_same_page(client: Client) -> None:
    TournamentFactory(slug="cup")
    response = client.post("/i18n/setlang/", {"language": "da", "next": "/t/cup/"})
    assert response.status_code == 302
    assert response["Location"] == "/da/t/cup/"
    german = client.get("/de/t/cup/").content.decode()
    assert "Rangliste" in german
    # Back to English from a German page: the form sends the unprefixed path.
    assert 'name="next" type="hidden" value="/t/cup/"' in german
    back = client.post("/i18n/setlang/", {"language": "en", "next": "/t/cup/"})
    assert back["Location"] == "/t/cup/"


def test_pages_link_the_printable_files(client: Client) -> None:
    match = match_seated(players=2, slug="cup")
    assert reverse("print:scoresheet") in client.get("/").content.decode()
    public = client.get("/t/cup/").content.decode()
    assert "/t/cup/standings.pdf" in public
    assert "/t/cup/rounds/1/scoresheets.pdf" not in public  # the sheets carry entry codes
    assert "/t/cup/report.pdf" not in public
    client.force_login(match.round.tournament.owner)
    for path in ("/t/cup/", "/t/cup/organise/"):
        text = client.get(path).content.decode()
        assert "/t/cup/rounds/1/scoresheets.pdf" in text
        assert "/t/cup/report.pdf" in text


def test_a_big_event_shows_its_latest_round_and_links_the_others(
    client: Client, monkeypatch, django_assert_max_num_queries
) -> None:
    tournament = tournament_played(tables=3, rounds=2)
    monkeypatch.setattr("tournaments.views.ROUNDS_INLINE_TABLES", 4)
    page = client.get(f"/t/{tournament.slug}/").content.decode()
    assert 'id="h-round-2"' in page and 'id="h-round-1"' not in page
    assert f'href="/t/{tournament.slug}/rounds/1/"' in page

    with django_assert_max_num_queries(8):
        response = client.get(f"/t/{tournament.slug}/rounds/1/")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="h-round-1"' in page and 'id="h-round-2"' not in page
    assert client.get(f"/t/{tournament.slug}/rounds/9/").status_code == 404
    assert client.get(f"/de/t/{tournament.slug}/rounds/2/").status_code == 200


def test_round_page_of_a_private_tournament_is_hidden(client: Client) -> None:
    tournament = tournament_played(tables=1, rounds=1)
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    assert client.get(f"/t/{tournament.slug}/rounds/1/").status_code == 404


def test_standings_page_shows_100_rows_and_exports_all(client: Client) -> None:
    from tests.factories import tournament_entered

    tournament = tournament_entered(players=130, slug="big-cup")
    page = client.get("/t/big-cup/standings/")
    assert len(page.context["table"].page.object_list) == 100
    csv = client.get("/t/big-cup/standings/?_export=csv").content.decode()
    assert len(csv.strip().splitlines()) == 131  # heading + every player
    assert client.get("/t/big-cup/standings/?page=2").status_code == 200
    assert tournament.entries.count() == 130


@pytest.mark.parametrize(
    "url",
    [
        "/t/{slug}/standings/?per_page=-1",
        "/t/{slug}/standings/?per_page=0&page=-3",
        "/t/{slug}/standings/?page=99999999999999999999",
        "/t/{slug}/rounds/99999999999999999999/",
        "/t/{slug}/rounds/99999999999999999999/scoresheets.pdf",
    ],
)
def test_odd_numbers_in_addresses_never_crash(client: Client, url: str) -> None:
    tournament = tournament_played(tables=1, rounds=1)
    response = client.get(url.format(slug=tournament.slug))
    assert response.status_code in (200, 302, 404)


def test_organiser_actions_with_an_impossible_player_id_are_404(client: Client) -> None:
    tournament = tournament_played(tables=1, rounds=1)
    client.force_login(tournament.owner)
    for action in ("withdraw", "check-in", "check-out"):
        url = f"/t/{tournament.slug}/organise/players/99999999999999999999/{action}/"
        assert client.post(url).status_code == 404


def test_organiser_page_reports_repeat_meetings_against_the_bound(client: Client) -> None:
    tournament = tournament_played(tables=2, rounds=2)
    client.force_login(tournament.owner)
    page = client.get(f"/t/{tournament.slug}/organise/").content.decode()
    # Eight players at two tables twice: each new table draws on two old ones,
    # so at least 2 pairs meet again at each: 4 is the bound.
    assert "Repeat meetings so far:" in page and "no seating can have fewer than 4" in page

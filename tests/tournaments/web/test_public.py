"""The public pages: who may see what, the standings and their exports, the
big-event layout, languages, login, and the query counts of the list pages."""

from __future__ import annotations

import csv
import io
import json

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import (
    AdjustmentFactory,
    ClubFactory,
    TournamentFactory,
    UserFactory,
    match_seated,
    seated_ids,
    tournament_entered,
)
from tests.tournaments.web.support import play, tournament_played
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------------ tournament pages


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


def test_unknown_tournament_is_404(client: Client) -> None:
    assert client.get("/t/no-such-thing/").status_code == 404
    assert client.get("/t/no-such-thing/standings/").status_code == 404


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
    monkeypatch.setattr("tournaments.web.public.ROUNDS_INLINE_TABLES", 4)
    page = client.get(f"/t/{tournament.slug}/").content.decode()
    assert 'id="h-round-2"' in page and 'id="h-round-1"' not in page
    assert f'href="/t/{tournament.slug}/rounds/1/"' in page

    # tournament, its version, rounds, tables with their versions, the unmatched
    # version, matches + seats + games + racks (boxes not cached yet), round list
    with django_assert_max_num_queries(10):
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
    # A column the table does not have and a page that is not a number: the page itself.
    bogus = client.get("/t/spring-cup/standings/?sort=bogus&page=x")
    assert (bogus.status_code, bogus["Location"]) == (302, "/t/spring-cup/standings/")


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
        response = client.get(f"/t/spring-cup/standings/?_export={bad}", follow=True)
        assert response.redirect_chain == [("/t/spring-cup/standings/", 302)]
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/html")


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
    ("query", "canonical"),
    [
        ("?per_page=1000&z=1", "?per_page=1000"),
        ("?z=1&utm_source=mail", ""),
        ("?per_page=37", "?per_page=50"),
        ("?per_page=5000", "?per_page=1000"),
        ("?per_page=100", ""),  # the default
        ("?per_page=0&page=-3", "?per_page=10"),
        ("?page=99999999999999999999", "?page=2"),  # past the last page: the last
        ("?page=1", ""),
        ("?sort=-name&sort=score", "?sort=score"),  # the last of a repeated parameter
        ("?sort=score,-wins", ""),  # one column at a time
        ("?sort=unconfirmed_games", ""),  # not sortable
        ("?stage=final", ""),
        ("?stage=%20qualifying", "?stage=qualifying"),
        ("?_export=yaml&sort=name", "?sort=name"),
        ("?category=%20U14", "?category=U14"),
    ],
)
def test_a_standings_address_is_sent_to_its_canonical_form(client: Client, query, canonical):
    from tests.factories import tournament_entered

    tournament = tournament_entered(players=130, slug="big-cup")
    tournament.entries.filter(player__name__startswith="P").update(category="U14")
    response = client.get(f"/t/big-cup/standings/{query}")
    assert response.status_code == 302
    assert response["Location"] == f"/t/big-cup/standings/{canonical}"
    assert client.get(response["Location"]).status_code == 200


@pytest.mark.parametrize(
    "query",
    ["", "?per_page=1000", "?sort=-score&page=2", "?stage=qualifying", "?category=Nobody"],
)
def test_a_canonical_standings_address_is_the_page(client: Client, query) -> None:
    from tests.factories import tournament_entered

    tournament_entered(players=130, slug="big-cup")
    assert client.get(f"/t/big-cup/standings/{query}").status_code == 200


def test_junk_parameters_never_make_cached_pages(client: Client) -> None:
    """900 addresses with a random parameter each grew every worker by 235 MB:
    now each is sent to the one canonical page, cached once."""
    from django.core.cache import caches

    tournament = tournament_played(tables=2, games=1)
    url = f"/t/{tournament.slug}/standings/"
    store = caches["default"]
    store.clear()
    kept: list[str] = []
    real_set = store.set

    def set_seen(key, *args, **kwargs):
        kept.append(key)
        return real_set(key, *args, **kwargs)

    store.set = set_seen
    try:
        for n in range(30):
            junk = {"per_page": "1000", "z": str(n)}
            assert client.get(url, junk, follow=True).status_code == 200
            sorted_rows = {"per_page": str(n), "sort": "name"}
            assert client.get(url, sorted_rows, follow=True).status_code == 200
            nobody = {"category": f"nobody {n}"}
            assert client.get(url, nobody).status_code == 200
            assert client.get(url, {**nobody, "_export": "csv"}).status_code == 200
    finally:
        del store.set
    # One small entry per stage says what the address is checked against.
    assert len([key for key in kept if ":page-standings-shape:" in key]) == 1
    bodies = [key for key in kept if ":page-standings:" in key and ":flight:" not in key]
    # Each body is a flight (phones poll the page): the latest rendered of each is named too.
    assert len([key for key in kept if ":flight:page-standings:" in key]) == 4
    # per_page=1000, and per_page 10, 25 and 50 sorted by name; no category nobody carries.
    assert len(bodies) == len(set(bodies)) == 4
    assert not [key for key in kept if ":page-standings-export" in key]


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


# --------------------------------------------------------------------------- query counts


@pytest.mark.parametrize("tables", [1, 8])
def test_tournament_page_query_count_does_not_grow(
    client: Client, tables: int, django_assert_max_num_queries
) -> None:
    tournament = tournament_played(tables=tables, rounds=2)
    # tournament, round list, rounds, tables with their versions, the unmatched version,
    # matches + seats + games + racks (the tables' boxes), standings (3), the stages
    # seated (the current ranking asks whether semi-finals or a final decide the order),
    # games awaiting confirmation, the tournament's version (its cached page's key)
    with django_assert_max_num_queries(15):
        response = client.get(f"/t/{tournament.slug}/")
    assert response.status_code == 200
    assert len(response.context["ranking_rows"]) == min(10, tables * 4)
    client.force_login(tournament.owner)  # + session and user
    with django_assert_max_num_queries(17):
        assert client.get(f"/t/{tournament.slug}/").status_code == 200
    # + entries, players not entered, round list, the latest round (5), seating history,
    # adjustments, the clubs of the add-player form, games awaiting confirmation
    with django_assert_max_num_queries(15):
        assert client.get(f"/t/{tournament.slug}/organise/").status_code == 200


@pytest.mark.parametrize("tables", [1, 8])
def test_standings_page_query_count_does_not_grow(
    client: Client, tables: int, django_assert_max_num_queries
) -> None:
    tournament = tournament_played(tables=tables)
    # tournament, standings (3), the stages seated (the current ranking's), games
    # awaiting confirmation, version
    with django_assert_max_num_queries(7):
        response = client.get(f"/t/{tournament.slug}/standings/")
    assert response.status_code == 200
    assert len(response.context["table"].rows) == tables * 4
    # The export counts them too (its ``Unconfirmed games`` column).
    with django_assert_max_num_queries(7):
        assert client.get(f"/t/{tournament.slug}/standings/?_export=csv").status_code == 200


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
    # A table's page answers in its tournament's language (web.table_language).
    match = match_seated(players=2, slug="cup", language=lang)
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


def test_the_standings_pages_are_named_in_the_visitors_language(client: Client) -> None:
    tournament = tournament_entered(players=12)
    text = client.get(f"/de/t/{tournament.slug}/standings/?per_page=10").content.decode()
    assert 'rel="next">Nächste Seite</a>' in text and "Seite 1 von 2" in text
    assert 'class="pagination"' not in text


def test_the_home_page_shows_ones_invitations_to_co_organise_a_club() -> None:
    from tests.factories import UserFactory
    from tournaments.models import ClubInvitation
    from tournaments.services import clubs as club_services

    creator = UserFactory(username="secretary")
    club = club_services.club_create(name="Vesterbro RK", created_by=creator)
    invitee = UserFactory(username="coorg")
    club_services.club_invitation_send(club=club, username="coorg", by=creator)
    client = Client()
    client.force_login(invitee)
    home = client.get("/").content.decode()
    invitation = ClubInvitation.objects.get()
    assert "Invitations to co-organise a club" in home and "Vesterbro RK" in home
    assert f'action="/clubs/invitations/{invitation.pk}/accept/"' in home
    client.post(f"/clubs/invitations/{invitation.pk}/accept/")
    assert "Invitations to co-organise a club" not in client.get("/").content.decode()
    # Nobody else is shown them.
    other = Client()
    other.force_login(UserFactory())
    assert "Invitations to co-organise a club" not in other.get("/").content.decode()


def test_the_page_writes_its_language_s_decimal_mark_and_the_exports_a_point(
    client: Client,
) -> None:
    from tests.tournaments.documents.rounds import played_with_cents

    t = played_with_cents(slug="cents-cup")
    page = client.get("/da/t/cents-cup/standings/").content.decode()
    assert "+22,50" in page and "+22.50" not in page
    assert "+22.50" in client.get("/t/cents-cup/standings/").content.decode()
    # Machine formats keep the point, whatever the page's language.
    body = client.get("/da/t/cents-cup/standings/?_export=csv").content.decode()
    scores = [row[3] for row in csv.reader(io.StringIO(body))][1:]
    assert scores == ["22.5", "-2", "-23"]
    rows = json.loads(client.get("/da/t/cents-cup/standings/?_export=json").content)
    assert rows[0]["Point"] == 22.5  # the headings in the page's language, the numbers plain
    api = client.get(f"/api/v1/tournaments/{t.pk}/standings/", HTTP_ACCEPT_LANGUAGE="da").json()
    assert api["results"][0]["score"] == 22.5

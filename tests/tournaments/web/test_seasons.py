"""Season pages: new, the table with its exports and PDF, edit, delete, New
evening, and an evening's check-in."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AbstractBaseUser
from django.test import Client

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.season_support import day, season_played
from tournaments.models import Entry, Season, Seat, Tournament
from tournaments.selectors.seasons import season_view
from tournaments.services import seasons

pytestmark = pytest.mark.django_db


def _client(user: AbstractBaseUser | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_a_season_is_made_on_its_form() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    web = _client(user)
    assert web.get(f"/c/{club.slug}/seasons/new/").status_code == 200
    bad = web.post(
        f"/c/{club.slug}/seasons/new/",
        {
            "name": "Autumn",
            "starts": day().isoformat(),
            "ends": day(-1).isoformat(),
            "evening_points": "rank_points",
            "best_of": 0,
            "min_evenings": 0,
            "guests": "exclude",
            "evening_format": "club_night",
            "evening_language": "en",
        },
    )
    assert bad.status_code == 400 and "cannot end before it starts" in bad.content.decode()
    made = web.post(
        f"/c/{club.slug}/seasons/new/",
        {
            "name": "Autumn",
            "starts": day().isoformat(),
            "ends": day(90).isoformat(),
            "evening_points": "score",
            "best_of": 3,
            "min_evenings": 2,
            "guests": "include",
            "evening_format": "german_city",
            "evening_rounds": 2,
            "evening_language": "da",
        },
    )
    season = Season.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/c/{club.slug}/seasons/{season.pk}/"
    assert season.evening_settings == {"format": "german_city", "rounds": 2, "language": "da"}
    assert (season.best_of, season.min_evenings, season.guests) == (3, 2, "include")


def test_the_season_page_shows_the_table_evenings_and_winners() -> None:
    played = season_played()
    url = f"/c/{played.club.slug}/seasons/{played.season.pk}/"
    page = _client(None).get(url)
    assert page.status_code == 200
    text = page.content.decode()
    view = season_view(season=played.season)
    for line in view.evenings:
        assert line.winner in text
    assert "Not yet qualified" in text or not view.table.unranked
    assert "<s " in text  # member 0's fourth evening does not count
    assert "New evening" not in text
    assert "New evening" in _client(played.organiser).get(url).content.decode()


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx", "ods"])
def test_the_season_table_exports(fmt: str) -> None:
    played = season_played()
    answer = _client(None).get(f"/c/{played.club.slug}/seasons/{played.season.pk}/?_export={fmt}")
    assert answer.status_code == 200
    assert "attachment" in answer["Content-Disposition"]
    if fmt == "json":
        rows = json.loads(answer.content)
        view = season_view(season=played.season)
        assert len(rows) == len(view.table.ranked) + len(view.table.unranked)
        assert rows[0]["Player"] == view.table.ranked[0].name
        assert rows[0]["Points"] == float(view.table.ranked[0].points)


def test_the_season_pdf() -> None:
    played = season_played()
    answer = _client(None).get(f"/c/{played.club.slug}/seasons/{played.season.pk}/table.pdf")
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")


def test_the_season_files_are_named_in_plain_letters() -> None:
    played = season_played()
    Season.objects.filter(pk=played.season.pk).update(name="Forår Sæson")
    url = f"/c/{played.club.slug}/seasons/{played.season.pk}/"
    name = f"{played.club.slug}-forar-saeson"
    assert f'filename="{name}.pdf"' in _client(None).get(url + "table.pdf")["Content-Disposition"]
    export = _client(None).get(url + "?_export=csv")
    assert f'filename="{name}.csv"' in export["Content-Disposition"]


def test_a_finished_season_names_its_champion() -> None:
    played = season_played()
    Season.objects.filter(pk=played.season.pk).update(ends=day(-1))
    page = _client(None).get(f"/c/{played.club.slug}/seasons/{played.season.pk}/")
    champion = season_view(season=played.season).table.ranked[0].name
    assert f"Champion: <strong>{champion}</strong>" in page.content.decode()


def test_a_private_clubs_season_is_its_organisers_alone() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user, public=False)
    season = seasons.season_create(club=club, user=user, name="S", starts=day(-30), ends=day(30))
    url = f"/c/{club.slug}/seasons/{season.pk}/"
    assert _client(None).get(url).status_code == 404
    assert _client(UserFactory()).get(url).status_code == 404
    assert _client(UserFactory()).get(url + "table.pdf").status_code == 404
    assert _client(user).get(url).status_code == 200


def test_new_evening_leads_to_the_check_in() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    season = seasons.season_create(club=club, user=user, name="S", starts=day(-30), ends=day(30))
    url = f"/c/{club.slug}/seasons/{season.pk}/evenings/new/"
    assert _client(UserFactory()).post(url).status_code == 403
    answer = _client(user).post(url)
    evening = Tournament.objects.get(season=season)
    assert answer["Location"] == f"/t/{evening.slug}/checkin/"


def test_the_check_in_ticks_searches_and_adds_a_guest() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    bjorn = PlayerFactory(club=club, name="Bjørn Østergaard", created_by=user)
    anna = PlayerFactory(club=club, name="Anna", created_by=user)
    season = seasons.season_create(club=club, user=user, name="S", starts=day(-30), ends=day(30))
    evening = seasons.evening_create(season=season, user=user)
    web = _client(user)
    url = f"/t/{evening.slug}/checkin/"
    page = web.get(url + "?q=ostergaard").content.decode()
    assert 'data-name="Anna" hidden' in page and 'data-name="Bjørn Østergaard">' in page
    answer = web.post(url, {"here": [bjorn.pk, anna.pk]})
    assert answer.status_code == 302
    here = set(
        Entry.objects.filter(tournament=evening, status="active").values_list(
            "player_id", flat=True
        )
    )
    assert here == {bjorn.pk, anna.pk}
    # Unticking Anna checks her out; an id from elsewhere is ignored.
    stranger = PlayerFactory()
    web.post(url, {"here": [bjorn.pk, stranger.pk]})
    assert Entry.objects.get(tournament=evening, player=anna).status == "absent"
    assert not Entry.objects.filter(tournament=evening, player=stranger).exists()
    guest = web.post(url + "guest/", {"name": "Gus"})
    assert guest.status_code == 302
    entry = Entry.objects.get(tournament=evening, player__name="Gus")
    assert entry.player.club is None and entry.status == "active"
    seat = web.post(url, {"here": [bjorn.pk], "seat": "1"})
    assert seat["Location"] == f"/t/{evening.slug}/organise/"
    assert _client(UserFactory()).get(url).status_code == 403


def test_a_season_is_edited_and_deleted() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    season = seasons.season_create(club=club, user=user, name="S", starts=day(-30), ends=day(30))
    web = _client(user)
    base = f"/c/{club.slug}/seasons/{season.pk}/"
    assert web.get(base + "edit/").status_code == 200
    assert _client(UserFactory()).get(base + "edit/").status_code == 403
    saved = web.post(
        base + "edit/",
        {
            "name": "Spring",
            "starts": day(-30).isoformat(),
            "ends": day(60).isoformat(),
            "evening_points": "table_points",
            "best_of": 0,
            "min_evenings": 1,
            "guests": "exclude",
            "evening_format": "club_night",
            "evening_language": "sv",
        },
    )
    assert saved.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.evening_points) == ("Spring", "table_points")
    assert season.evening_settings["language"] == "sv"
    assert web.post(base + "delete/").status_code == 302
    assert not Season.objects.exists()


def test_the_tournament_form_offers_only_seasons_of_clubs_one_organises() -> None:
    from tournaments.web.settings_forms import TournamentForm

    organiser, stranger = UserFactory(), UserFactory()
    club = ClubFactory(created_by=organiser, public=False)
    season = seasons.season_create(
        club=club, user=organiser, name="S", starts=day(-30), ends=day(30)
    )
    own = seasons.season_create(
        club=ClubFactory(created_by=stranger),
        user=stranger,
        name="Own",
        starts=day(-30),
        ends=day(30),
    )
    form = TournamentForm(user=stranger)
    choices = list(form.fields["season"].queryset)
    assert choices == [own]
    # Posting someone else's season is refused at the field; the kind is choosable.
    initial = TournamentForm.initial_from(Tournament(name="Mine"))
    data = {
        k: ("" if v is None else ("on" if v is True else v))
        for k, v in initial.items()
        if v is not False
    }
    data.update(name="Mine", season=str(season.pk), kind="league")
    posted = TournamentForm(data, user=stranger)
    assert not posted.is_valid() and "season" in posted.errors
    data["season"] = str(own.pk)
    posted = TournamentForm(data, user=stranger)
    assert posted.is_valid(), posted.errors
    assert posted.settings()["season"] == own and posted.settings()["kind"] == "league"


def test_the_club_page_lists_its_seasons_with_the_champion() -> None:
    played = season_played()
    Season.objects.filter(pk=played.season.pk).update(ends=day(-1))
    seasons.season_create(
        club=played.club, user=played.organiser, name="Spring", starts=day(), ends=day(365)
    )
    page = _client(None).get(f"/c/{played.club.slug}/").content.decode()
    champion = season_view(season=Season.objects.get(pk=played.season.pk)).table.ranked[0].name
    assert f"Champion: {champion}" in page
    assert page.index("<strong>Spring") < page.index("<strong>Autumn")  # current ones first
    assert "New season" not in page
    assert "New season" in _client(played.organiser).get(f"/c/{played.club.slug}/").content.decode()


def test_save_and_seat_round_1_seats_the_players_here_once() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    members = [PlayerFactory(club=club, name=f"M{i}", created_by=user) for i in range(9)]
    season = seasons.season_create(club=club, user=user, name="S", starts=day(-30), ends=day(30))
    evening = seasons.evening_create(season=season, user=user)
    web = _client(user)
    url = f"/t/{evening.slug}/checkin/"
    here = [p.pk for p in members[:8]]
    answer = web.post(url, {"here": here, "seat": "1"}, follow=True)
    assert answer.redirect_chain[-1][0] == f"/t/{evening.slug}/organise/"
    round_ = evening.round_set.get()
    seated = set(Seat.objects.filter(match__round=round_).values_list("player_id", flat=True))
    assert round_.number == 1 and seated == set(here)
    assert "Round 1 seated." in answer.content.decode()
    # Once round 1 is seated, the button saves and leads to the desk, seating nothing more.
    web.post(url, {"here": here, "seat": "1"})
    assert evening.round_set.count() == 1


def test_save_and_seat_says_why_a_round_cannot_be_seated() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    alone = PlayerFactory(club=club, name="Alone", created_by=user)
    season = seasons.season_create(club=club, user=user, name="S", starts=day(-30), ends=day(30))
    evening = seasons.evening_create(season=season, user=user)
    answer = _client(user).post(
        f"/t/{evening.slug}/checkin/", {"here": [alone.pk], "seat": "1"}, follow=True
    )
    assert answer.status_code == 200 and not evening.round_set.exists()
    assert any(m.level_tag == "error" for m in answer.context["messages"])


def test_evenings_on_one_day_keep_a_column_each_in_the_exports() -> None:
    played = season_played()
    Tournament.objects.filter(season=played.season).update(date=played.season.starts)
    answer = _client(None).get(f"/c/{played.club.slug}/seasons/{played.season.pk}/?_export=json")
    rows = json.loads(answer.content)
    view = season_view(season=played.season)
    evenings = [key for key in rows[0] if key not in ("#", "Player", "Points", "Evenings", "Best")]
    assert len(evenings) == len([e for e in view.evenings if e.counts]) == 4
    assert evenings[1].endswith(" (2)") and evenings[3].endswith(" (4)")
    counted = [e for e in view.evenings if e.counts]
    # Every ranked player's evenings, each in its own column; an evening a
    # player did not play is null in JSON (empty in CSV).
    for row, line in zip(rows, view.table.ranked, strict=False):
        assert row["Player"] == line.name
        assert [row[key] for key in evenings] == [
            float(line.by_evening[e.id]) if e.id in line.by_evening else None for e in counted
        ]
    assert any(None in [row[key] for key in evenings] for row in rows)


def test_an_ended_season_offers_no_new_evening() -> None:
    played = season_played()
    Season.objects.filter(pk=played.season.pk).update(ends=day(-1))
    base = f"/c/{played.club.slug}/seasons/{played.season.pk}/"
    web = _client(played.organiser)
    page = web.get(base).content.decode()
    assert base + "evenings/new/" not in page and ">New evening<" not in page
    assert f'href="/c/{played.club.slug}/seasons/new/">Start a new season</a>' in page
    assert "Edit season" in page
    # A form kept open from before is refused, with the reason, and nothing is stored.
    made = Tournament.objects.count()
    answer = web.post(base + "evenings/new/", follow=True)
    assert answer.redirect_chain == [(base, 302)]
    said = [str(m) for m in answer.context["messages"]]
    assert any("start a new season" in m for m in said), said
    assert Tournament.objects.count() == made
    # In Danish too.
    answer = web.post(f"/da{base}evenings/new/", follow=True)
    assert any("start en ny sæson" in str(m) for m in answer.context["messages"])
    assert Tournament.objects.count() == made
    # A current season offers it.
    Season.objects.filter(pk=played.season.pk).update(ends=day())
    assert ">New evening<" in web.get(base).content.decode()


def _language_offered(web: Client, url: str) -> str:
    answer = web.get(url)
    assert answer.status_code == 200
    return str(answer.context["form"]["evening_language"].value())


def test_the_season_form_offers_the_language_of_its_evenings() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    web = _client(user)
    new = f"/c/{club.slug}/seasons/new/"
    # The language the secretary is using, for a club's first season.
    assert _language_offered(web, new) == "en"
    assert _language_offered(web, "/da" + new) == "da"
    page = web.get("/da" + new).content.decode()
    assert '<option value="da" selected>' in page
    assert all(f'<option value="{code}"' in page for code in ("en", "da", "sv", "nb", "de", "nl"))
    # Then the club's previous season's.
    first = seasons.season_create(
        club=club,
        user=user,
        name="Spring",
        starts=day(-30),
        ends=day(30),
        evening_settings={"language": "nl"},
    )
    assert _language_offered(web, new) == "nl"
    assert _language_offered(web, "/da" + new) == "nl"
    # A season's own, on its form.
    edit = f"/c/{club.slug}/seasons/{first.pk}/edit/"
    seasons.season_update(season=first, user=user, evening_settings={"language": "de"})
    assert _language_offered(web, edit) == "de"


def test_new_evening_starts_in_the_language_chosen_on_the_form() -> None:
    user = UserFactory()
    club = ClubFactory(created_by=user)
    web = _client(user)
    made = web.post(
        f"/da/c/{club.slug}/seasons/new/",
        {
            "name": "Efterår",
            "starts": day().isoformat(),
            "ends": day(90).isoformat(),
            "evening_points": "rank_points",
            "best_of": 0,
            "min_evenings": 0,
            "guests": "exclude",
            "evening_format": "club_night",
            "evening_language": "da",
        },
    )
    assert made.status_code == 302
    season = Season.objects.get()
    assert season.evening_settings == {"format": "club_night", "language": "da"}
    answer = web.post(f"/c/{club.slug}/seasons/{season.pk}/evenings/new/")
    evening = Tournament.objects.get(season=season)
    assert answer["Location"] == f"/t/{evening.slug}/checkin/"
    assert evening.language == "da"
    # An unknown language is refused at its field, nothing stored.
    bad = web.post(
        f"/c/{club.slug}/seasons/{season.pk}/edit/",
        {
            "name": "Efterår",
            "starts": day().isoformat(),
            "ends": day(90).isoformat(),
            "evening_points": "rank_points",
            "best_of": 0,
            "min_evenings": 0,
            "guests": "exclude",
            "evening_format": "club_night",
            "evening_language": "xx",
        },
    )
    assert bad.status_code == 400 and "evening_language" in bad.context["form"].errors
    season.refresh_from_db()
    assert season.evening_settings["language"] == "da"


def _tournament_post(**changes: str) -> dict[str, str]:
    from tournaments.web.settings_forms import TournamentForm

    initial = TournamentForm.initial_from(Tournament(name="Night"))
    data = {
        k: ("" if v is None else ("on" if v is True else str(v)))
        for k, v in initial.items()
        if v is not False
    }
    data.update(changes)
    return data


def test_the_tournament_form_keeps_an_evening_in_its_seasons_club() -> None:
    organiser = UserFactory()
    club = ClubFactory(created_by=organiser)
    other = ClubFactory(created_by=organiser)
    season = seasons.season_create(
        club=club, user=organiser, name="S", starts=day(-30), ends=day(30)
    )
    web = _client(organiser)
    refused = web.post(
        "/t/new/", _tournament_post(name="Elsewhere", club=str(other.pk), season=str(season.pk))
    )
    assert refused.status_code == 400
    assert "season" in refused.context["form"].errors
    assert not Tournament.objects.filter(name="Elsewhere").exists()
    made = web.post(
        "/t/new/", _tournament_post(name="Tonight", date=day().isoformat(), season=str(season.pk))
    )
    assert made.status_code == 302
    tonight = Tournament.objects.get(name="Tonight")
    assert (tonight.season, tonight.club) == (season, club)
    # A night after the season's last day is refused at the season.
    late = web.post(
        "/t/new/",
        _tournament_post(name="Late", date=day(31).isoformat(), season=str(season.pk)),
    )
    assert late.status_code == 400 and "season" in late.context["form"].errors
    assert not Tournament.objects.filter(name="Late").exists()

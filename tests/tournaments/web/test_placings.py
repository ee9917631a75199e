"""Final placings and the ranking's column: a finished tournament's page shows
the same places as the final report PDF, and every standings table (the
tournament page, the standings page, the PDFs) leads with the ranking's column
while the exports keep theirs."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.cache import caches
from django.test import Client

from tests.factories import round_play, tournament_entered
from tests.printing.engine.pdf import pages_of
from tournaments.models import Tournament
from tournaments.selectors.standings import final_places_for, standings_for
from tournaments.services import adjustments, rounds, stages
from tournaments.web.standings_table import number_text

pytestmark = pytest.mark.django_db


def _finished(**settings) -> Tournament:
    """Qualifying, semi-finals and a final played, then finished."""
    t = tournament_entered(players=12, games_per_round=2, rounds=1, semifinal_players=8, **settings)
    round_play(rounds.round_seat_next(tournament=t), seed=3)
    round_play(stages.stage_seat(tournament=t, stage="semifinal"), seed=4)
    round_play(stages.stage_seat(tournament=t, stage="final"), seed=5)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    t.refresh_from_db()
    return t


def _web_places(client: Client, t: Tournament) -> list[str]:
    page = client.get(f"/t/{t.slug}/").content.decode()
    section = page.split('id="places"', 1)[1].split("</section>", 1)[0]
    # Each name links to the player's page.
    return re.findall(r'<td class="name"><a href="/p/\d+/">(.*?)</a>', section)


def _pdf_order(text: str, names: list[str]) -> list[str]:
    return sorted(names, key=text.index)


@pytest.mark.parametrize("ranking", ["score", "table_points"])
def test_finished_tournament_page_shows_the_report_pdfs_placings(client: Client, ranking) -> None:
    t = _finished(ranking=ranking, carry_over="1" if ranking == "score" else "0")
    client.force_login(t.owner)

    web = _web_places(client, t)
    report = pages_of(client.get(f"/t/{t.slug}/report.pdf").content)
    text = "".join(p.extract_text() for p in report).split("Results by table")[0]
    everyone = list(t.entries.values_list("player__name", flat=True))

    assert len(web) == 12 and sorted(web) == sorted(everyone)
    assert _pdf_order(text, everyone) == web
    assert web == [r.name for r in final_places_for(tournament=t)]
    # The final's four lead the places, whatever the qualifying totals said.
    finalists = set(t.round_set.get(stage="final").seats.values_list("player__name", flat=True))
    assert set(web[:4]) == finalists


def test_placings_only_once_the_tournament_is_finished(client: Client) -> None:
    t = tournament_entered(players=4, games_per_round=1)
    round_play(rounds.round_seat_next(tournament=t))
    assert 'id="places"' not in client.get(f"/t/{t.slug}/").content.decode()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    caches["default"].clear()  # a write outside the services: no new version to show it
    page = client.get(f"/t/{t.slug}/").content.decode()
    assert 'id="places"' in page and "Final placings" in page


# ----------------------------------------------------------------------------- the ranking's column


def _headings(html: str, table_class: str) -> list[str]:
    table = html.split(f'class="{table_class}', 1)[1].split("</thead>", 1)[0]
    cells = re.findall(r"<th[^>]*>(.*?)</th>", table, flags=re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in cells]


@pytest.mark.parametrize(
    ("ranking", "lead"),
    [("score", "Score"), ("table_points", "Table points"), ("average", "Average")],
)
def test_pages_lead_with_the_ranking_column(client: Client, ranking: str, lead: str) -> None:
    t = tournament_entered(players=4, games_per_round=2, ranking=ranking)
    round_play(rounds.round_seat_next(tournament=t))

    page = client.get(f"/t/{t.slug}/").content.decode()
    short = _headings(page, "data compact standings-short")
    assert short[:3] == ["#", "Player", lead]
    assert short.count(lead) == 1 and "Games" in short and "Wins" in short
    assert re.search(r'<th scope="col" class="num lead">' + lead, page)

    response = client.get(f"/t/{t.slug}/standings/")
    full = _headings(response.content.decode(), "data standings")
    assert full[:4] == ["#", "Player", lead, "Club"]
    assert full.count(lead) == 1
    assert ("Average" in full) == (ranking == "average")
    bold = re.findall(r'<td class="lead num">([^<]*)</td>', response.content.decode())
    assert len(bold) == 4  # one emphasised number a player

    # The exports keep their columns.
    exported = client.get(f"/t/{t.slug}/standings/?_export=csv").content.decode()
    header = next(csv.reader(io.StringIO(exported)))
    assert header == [
        "#",
        "Player",
        "Club",
        "Score",
        "Games",
        "Wins",
        "Points left on racks",
        "Table points",
        "Organiser's bonuses and penalties",
        "Unconfirmed games",
    ]


def test_standings_page_lead_column_holds_the_ranking_values(client: Client) -> None:
    t = tournament_entered(players=4, games_per_round=2, ranking="table_points")
    round_play(rounds.round_seat_next(tournament=t))
    response = client.get(f"/t/{t.slug}/standings/")
    bold = re.findall(r'<td class="lead num">([^<]*)</td>', response.content.decode())
    rows = standings_for(tournament=t)
    # As a score sheet shows them: 4, 4.50 (a half point from a shared place).
    assert bold == [number_text(r.table_points) for r in rows]


@pytest.mark.parametrize(
    ("ranking", "order"),
    [
        (
            "table_points",
            [
                "Table points",
                "Score",
                "Games",
                "Wins",
                "Points left on racks",
                "Organiser's bonuses and penalties",
            ],
        ),
        ("average", ["Average", "Score", "Games", "Wins", "Points left on racks", "Table points"]),
        (
            "score",
            [
                "Score",
                "Games",
                "Wins",
                "Points left on racks",
                "Table points",
                "Organiser's bonuses and penalties",
            ],
        ),
    ],
)
def test_pdfs_lead_with_the_ranking_column(ranking: str, order: list[str]) -> None:
    t = tournament_entered(players=4, games_per_round=2, ranking=ranking)
    round_play(rounds.round_seat_next(tournament=t))
    # An adjustment, so that the PDFs print their column too (no one has one: no column).
    adjustments.adjustment_add(tournament=t, player_id=t.entries.first().player_id, points=-1,
                               reason="Late")  # fmt: skip
    client = Client()
    client.force_login(t.owner)
    for url in (f"/t/{t.slug}/standings.pdf", f"/t/{t.slug}/report.pdf"):
        text = " ".join(
            "".join(p.extract_text() for p in pages_of(client.get(url).content)).split()
        )
        header = text.split("Club", 1)[1]
        positions = [header.index(label) for label in order]
        assert positions == sorted(positions), (url, header[:200])


# ----------------------------------------------------------------------------- places vs standings


def test_finished_pages_show_the_placings_and_name_every_stage(client: Client) -> None:
    # One ranking everywhere: the standings page shows the final placings itself
    # (it used to list the totals over every round and point to the tournament
    # page), and the tournament page no longer adds a table of those totals.
    t = _finished(ranking="score")
    standings = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert "· Final placings</span></h1>" in standings
    assert 'href="?stage=qualifying"' in standings
    table = standings.split('data-live="standings-table"', 1)[1]
    ids = [int(p) for p in re.findall(r'href="/p/(\d+)/"', table.split("</table>", 1)[0])]
    assert ids == [r.player_id for r in final_places_for(tournament=t)]

    page = client.get(f"/t/{t.slug}/").content.decode()
    assert page.count('id="h-standings"') == 1
    assert "Standings over every round" not in page
    places = page.split('id="places"', 1)[1].split("</section>", 1)[0]
    assert "Score counts only the games of the stage that decided the place." in places
    assert f'href="/t/{t.slug}/standings/?stage=qualifying"' in places
    decided = re.findall(r"<td>(Final|Semi-final|Qualifying)</td>", places)
    assert decided == ["Final"] * 4 + ["Semi-final"] * 4 + ["Qualifying"] * 4


def test_carried_points_are_said_and_open_tournaments_say_nothing(client: Client) -> None:
    t = _finished(ranking="score", carry_over="1")
    page = client.get(f"/t/{t.slug}/").content.decode()
    assert "Score counts the games of the stage that decided the place and of every round" in page
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    caches["default"].clear()  # a write outside the services: no new version to show it
    for path in ("standings/", ""):
        page = client.get(f"/t/{t.slug}/{path}").content.decode()
        assert "The tournament is finished" not in page

"""One ranking everywhere: a staged tournament (qualifying, semi-finals, final)
shows the same order of players on the tournament page, the standings page
and its CSV and JSON exports, the projector (its slides and its state),
``standings.pdf``, the API standings and ``report.pdf``; after the final the
final's winner comes first, whatever the totals over every round say."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import round_play, tournament_entered
from tests.tournaments.services.support import entry_ids, force_order, play_table
from tournaments.models import Tournament
from tournaments.selectors.standings import ranking_current, standings_for
from tournaments.services import rounds, stages, tournaments

pytestmark = pytest.mark.django_db


def _qualified(carry_over: str) -> tuple[Tournament, list[int]]:
    """One qualifying round played, the qualifying order forced (seed 1 first)."""
    t = tournament_entered(
        players=12,
        games_per_round=1,
        rounds=1,
        semifinal_players=8,
        carry_over=carry_over,
        public=True,
    )
    round_play(rounds.round_seat_next(tournament=t))
    seeds = entry_ids(t)[::-1]
    force_order(t, seeds)
    return t, seeds


def _semis_played(t: Tournament, s: list[int]) -> None:
    semi = stages.stage_seat(tournament=t, stage="semifinal")
    table1, table2 = semi.matches.order_by("table")
    # Seeds 7 and 8 win their semi-finals; the favourites lose big.
    play_table(table1, s[6], {s[0]: 60, s[2]: 5, s[4]: 10})
    play_table(table2, s[7], {s[1]: 60, s[3]: 5, s[5]: 10})


def _pdf_text(content: bytes, tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(content)
    return subprocess.run(
        ["pdftotext", "-layout", "-enc", "UTF-8", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _in_text_order(text: str, names: dict[int, str]) -> list[int]:
    """The players in the order their names first appear in ``text``."""
    found = {pid: text.find(name) for pid, name in names.items()}
    return sorted((pid for pid, at in found.items() if at >= 0), key=found.__getitem__)


def _orders(t: Tournament, tmp_path: Path) -> dict[str, list[int]]:
    """The order of the players in every view that orders them."""
    names = dict(t.entries.values_list("player_id", "player__name"))
    by_name = {name: pid for pid, name in names.items()}
    visitor = Client()
    owner = Client()
    owner.force_login(t.owner)
    orders: dict[str, list[int]] = {}

    page = visitor.get(f"/t/{t.slug}/").content.decode()
    panel = page.split('data-live="standings"', 1)[1].split("</section>", 1)[0]
    orders["tournament page"] = [
        int(p) for p in re.findall(r'<td class="name"><a href="/p/(\d+)/"', panel)
    ]

    standings = visitor.get(f"/t/{t.slug}/standings/").content.decode()
    table = standings.split('data-live="standings-table"', 1)[1].split("</table>", 1)[0]
    orders["standings page"] = [int(p) for p in re.findall(r'href="/p/(\d+)/"', table)]

    exported = visitor.get(f"/t/{t.slug}/standings/?_export=csv").content.decode()
    orders["csv"] = [by_name[row["Player"]] for row in csv.DictReader(io.StringIO(exported))]
    answered = visitor.get(f"/t/{t.slug}/standings/?_export=json").content
    orders["json"] = [by_name[row["Player"]] for row in json.loads(answered)]

    slides = visitor.get(f"/t/{t.slug}/screen/").context["slides"]
    shown = [s for s in slides if "screen-standings" in s]
    orders["projector slides"] = [
        by_name[n] for s in shown for n in re.findall(r'<td class="name">([^<]*)</td>', s)
    ]
    orders["projector state"] = visitor.get(f"/t/{t.slug}/screen/state/").json()["players"]

    pdf = visitor.get(f"/t/{t.slug}/standings.pdf").content
    orders["standings.pdf"] = _in_text_order(_pdf_text(pdf, tmp_path, "standings"), names)

    answer = visitor.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    orders["api"] = [row["player"] for row in answer["results"]]

    report = _pdf_text(owner.get(f"/t/{t.slug}/report.pdf").content, tmp_path, "report")
    orders["report.pdf"] = _in_text_order(report.split("Results by table", 1)[0], names)
    return orders


def _assert_one_order(orders: dict[str, list[int]], expected: list[int]) -> None:
    for view, order in orders.items():
        # The tournament page shows the top ten until the placings are final.
        assert order == expected[: len(order)], view
        assert len(order) >= min(10, len(expected)), view


def test_after_the_final_every_view_crowns_the_finals_winner(tmp_path: Path) -> None:
    t, s = _qualified(carry_over="0")
    _semis_played(t, s)
    final = stages.stage_seat(tournament=t, stage="final")
    # Seed 1 and seed 2 went through as the best of the rest; seed 8 wins the final.
    finalists = set(final.seats.values_list("player_id", flat=True))
    assert finalists == {s[6], s[7], s[2], s[3]}
    play_table(final.matches.get(), s[7], {s[6]: 1, s[2]: 2, s[3]: 3})
    tournaments.tournament_finish(tournament=t, user=t.owner)
    t.refresh_from_db()

    ranking = ranking_current(tournament=t)
    expected = [r.player_id for r in ranking.rows]
    assert ranking.decided and ranking.label == "Final placings"
    assert expected[0] == s[7]
    # Over every round the qualifying bonuses still put seed 1 first: the bug was showing that.
    assert standings_for(tournament=t)[0].player_id == s[0]
    orders = _orders(t, tmp_path)
    _assert_one_order(orders, expected)
    assert len(orders["tournament page"]) == 12  # the final placings in full


def test_a_played_out_final_is_decided_before_the_organiser_finishes(tmp_path: Path) -> None:
    t, s = _qualified(carry_over="0")
    _semis_played(t, s)
    final = stages.stage_seat(tournament=t, stage="final")
    assert ranking_current(tournament=t).label == "Final"
    play_table(final.matches.get(), s[2], {s[6]: 1, s[7]: 2, s[3]: 3})
    ranking = ranking_current(tournament=t)
    assert ranking.decided and ranking.rows[0].player_id == s[2]
    _assert_one_order(_orders(t, tmp_path), [r.player_id for r in ranking.rows])


@pytest.mark.parametrize("carry_over", ["0", "0.5", "1"])
def test_during_the_semifinals_every_view_shows_the_placings_so_far(
    tmp_path: Path, carry_over: str
) -> None:
    t, s = _qualified(carry_over=carry_over)
    _semis_played(t, s)
    ranking = ranking_current(tournament=t)
    expected = [r.player_id for r in ranking.rows]
    assert ranking.stage == "semifinal" and not ranking.decided
    # The semi-finalists first, then the rest by the qualifying standings.
    assert set(expected[:8]) == set(s[:8]) and expected[8:] == s[8:]
    if carry_over == "0":
        # By the semi-finals alone, their winners lead.
        assert set(expected[:2]) == {s[6], s[7]}
    else:
        # Carried qualifying bonuses keep the top seeds ahead (half of them: still ahead).
        assert expected[:2] == [s[0], s[1]]
    _assert_one_order(_orders(t, tmp_path), expected)


def test_every_view_names_its_stage_and_links_the_qualifying_table(tmp_path: Path) -> None:
    t, s = _qualified(carry_over="0")
    _semis_played(t, s)
    client = Client()
    for url in (f"/t/{t.slug}/", f"/t/{t.slug}/standings/"):
        html = client.get(url).content.decode()
        assert "· Semi-finals</span>" in html, url
        assert f'href="/t/{t.slug}/standings/?stage=qualifying"' in html or (
            'href="?stage=qualifying"' in html
        ), url
    slides = client.get(f"/t/{t.slug}/screen/").context["slides"]
    assert "· Semi-finals</span>" in slides[0]
    assert client.get(f"/t/{t.slug}/screen/state/").json()["stage"] == "semifinal"
    text = _pdf_text(client.get(f"/t/{t.slug}/standings.pdf").content, tmp_path, "s")
    assert "Standings · Semi-finals" in text
    answer = client.get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    assert (answer["stage"], answer["decided"]) == ("semifinal", False)

    # One click away: the qualifying table, in the qualifying order.
    qualifying = [r.player_id for r in standings_for(tournament=t, stage="qualifying")]
    html = client.get(f"/t/{t.slug}/standings/?stage=qualifying").content.decode()
    table = html.split('data-live="standings-table"', 1)[1].split("</table>", 1)[0]
    assert [int(p) for p in re.findall(r'href="/p/(\d+)/"', table)] == qualifying
    assert "This is the qualifying table" in html
    answer = client.get(f"/api/v1/tournaments/{t.pk}/standings/?stage=qualifying").json()
    assert answer["stage"] == "qualifying"
    assert [row["player"] for row in answer["results"]] == qualifying
    exported = client.get(f"/t/{t.slug}/standings/?stage=qualifying&_export=json").content
    names = dict(t.entries.values_list("player__name", "player_id"))
    assert [names[row["Player"]] for row in json.loads(exported)] == qualifying

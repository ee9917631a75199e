"""Print reads: the sheet data and the report of a round, in a planned number of queries."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory
from tests.tournaments.documents.rounds import round_with_tables
from tournaments.models import Round
from tournaments.selectors.print_data import report_data, scoresheets_data

pytestmark = pytest.mark.django_db


def test_print_selectors_plan_their_queries(
    django_assert_num_queries, django_assert_max_num_queries
):
    t = TournamentFactory(paper="Letter")
    round_ = round_with_tables(t, sizes=(4, 3, 2), games=4)
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    with django_assert_num_queries(2):
        data = scoresheets_data(round_=round_, base_url="https://x.org/")
    with django_assert_max_num_queries(16):
        report = report_data(tournament=t)
    assert [len(m.players) for m in report.rounds[0].matches] == [4, 3, 2]
    assert [len(s["players"]) for s in data["sheets"]] == [4, 3, 2]
    assert data["sheets"][0]["url"].startswith("https://x.org/m/")
    assert data["paper"] == "Letter" and data["sheets"][0]["games"] == 4

"""A final played to N wins on the match page and its score sheet: the page says
"first to N wins", stops offering games once a player has them, and a further
game posted is refused with nothing stored; the sheet says it too and has the
rows the longest such final can need."""

from __future__ import annotations

import pytest
from django.test import Client

from scoring.rules import RackIn
from tests.factories import seated_ids
from tests.tournaments.services.test_stages import qualified
from tests.tournaments.web.support import entry_post
from tournaments.models import Game, Match
from tournaments.selectors.print_data import scoresheets_data
from tournaments.services import stages
from tournaments.services.games import game_record

pytestmark = pytest.mark.django_db


def final_to(wins: int) -> Match:
    t, _order = qualified(semis=0, final_first_to=wins)
    return stages.stage_seat(tournament=t, stage="final").matches.get()


def win(match: Match, winner: int) -> None:
    game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=p, points=0 if p == winner else 10) for p in seated_ids(match)],
    )


def test_the_match_page_says_first_to_n_wins_and_offers_games_until_decided(client: Client):
    match = final_to(2)
    a, b = seated_ids(match)[:2]
    page = client.get(f"/m/{match.token}/")
    assert "First to 2 wins" in page.content.decode() and page.context["form"] is not None
    win(match, a)
    win(match, b)
    assert client.get(f"/m/{match.token}/").context["form"] is not None  # 1 win each
    win(match, b)
    decided = client.get(f"/m/{match.token}/")
    assert decided.context["form"] is None
    name = match.seats.get(player_id=b).player.name
    assert f"The final is decided: {name} has won 2 games." in decided.content.decode()
    others = {p: {"points": "5"} for p in seated_ids(match) if p != a}
    refused = client.post(f"/m/{match.token}/", entry_post(match, {a: {}, **others}))
    assert refused.status_code in (400, 409)
    assert "The final is decided" in refused.content.decode()
    assert Game.objects.filter(match=match).count() == 3


def test_the_score_sheet_of_a_final_to_n_wins_says_so_and_fits_the_longest_final():
    match = final_to(4)
    sheet = scoresheets_data(round_=match.round, base_url="https://example.org")["sheets"][0]
    assert sheet["stage"] == "final, first to 4 wins"
    assert sheet["games"] == 4 * 3 + 1
    plain = qualified(semis=0, final_games=2)[0]
    round_ = stages.stage_seat(tournament=plain, stage="final")
    sheet = scoresheets_data(round_=round_, base_url="https://example.org")["sheets"][0]
    assert (sheet["stage"], sheet["games"]) == ("final", 2)

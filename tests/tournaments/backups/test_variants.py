"""Backups and the settings added to version 1 since its first documents: event
variants, stages and the hall are written and restored; an older document's
``final_carry_over`` becomes ``carry_over``; what it lacks takes the defaults;
racks keep their bonus and entries their category."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from scoring.rules import RackIn
from tests.factories import UserFactory, match_seated, seated_ids
from tests.tournaments.api.conftest import client_as
from tests.tournaments.backups.big import big_document
from tests.tournaments.backups.conftest import standings_json
from tournaments.backups.document import VARIANT_DEFAULTS, checksum_of, tournament_document
from tournaments.backups.restore import tournament_import
from tournaments.models import Entry, Rack, Tournament
from tournaments.services.games import game_record

pytestmark = pytest.mark.django_db

IMPORT = "/api/v1/tournaments/import/?slug=copy"
VARIANTS: dict[str, Any] = {
    "loss_cap": 25,
    "winner_bonus": 50,
    "runner_up_bonus": 5,
    "semifinal_games": 2,
    "final_games": 1,
    "final_first_to": 4,
    "carry_over": "0.5",
    "final_from": "stage_points",
    "turn_seconds": 40,
    "round_minutes": 45,
    "format": "bonus_league",
}


def _signed(document: dict[str, Any]) -> dict[str, Any]:
    document["checksum"] = checksum_of(document)
    return document


def _older(**settings: Any) -> dict[str, Any]:
    """A document written before the variants: ``final_carry_over``, none of the rest."""
    document = big_document(players=8, rounds=1, games=2)
    assert not set(VARIANT_DEFAULTS) & set(document["tournament"])
    document["tournament"] = {**document["tournament"], **settings}
    return _signed(document)


@pytest.mark.parametrize(("flag", "carry_over"), [(True, "1"), (False, "0")])
def test_an_older_documents_carry_over_flag_is_restored_as_carry_over(flag, carry_over):
    tournament = tournament_import(
        document=_older(final_carry_over=flag), owner=UserFactory(), slug="old"
    )
    assert tournament.carry_over == carry_over
    assert (tournament.loss_cap, tournament.winner_bonus, tournament.turn_seconds) == (None, 0, 60)
    assert set(Rack.objects.values_list("bonus", flat=True)) == {Decimal(0)}
    assert set(Entry.objects.values_list("category", flat=True)) == {""}


def test_variants_bonuses_and_categories_go_round_trip():
    owner = UserFactory()
    document = _older()
    document["tournament"].pop("final_carry_over")
    document["tournament"].update(VARIANTS)
    # The engine re-scores every game: no game here, so bonuses need none paid.
    document["games"] = []
    document["entries"][0]["category"] = "U14"
    tournament = tournament_import(document=_signed(document), owner=owner, slug="first")
    assert {name: getattr(tournament, name) for name in VARIANTS} == VARIANTS
    again = tournament_document(tournament=tournament)
    assert {name: again["tournament"][name] for name in VARIANTS} == VARIANTS
    assert "final_carry_over" not in again["tournament"]
    assert again["entries"][0]["category"] == "U14"
    copy = tournament_import(document=again, owner=owner, slug="second")
    assert {name: getattr(copy, name) for name in VARIANTS} == VARIANTS


def test_a_racks_bonus_is_written_and_restored_with_the_standings(owner, played):
    racks = Rack.objects.filter(game__match__round__tournament=played)
    assert {
        r["bonus"] for g in tournament_document(tournament=played)["games"] for r in g["racks"]
    } == {"0.00"}
    copy = tournament_import(
        document=json.loads(json.dumps(tournament_document(tournament=played))),
        owner=owner,
        slug="copy",
    )
    assert standings_json(copy, owner) == standings_json(played, owner)
    assert racks.count() == Rack.objects.filter(game__match__round__tournament=copy).count()


def test_a_tampered_bonus_is_refused_naming_it():
    document = big_document(players=4, rounds=1, games=1)
    document["tournament"] = {**document["tournament"]}
    for rack in document["games"][0]["racks"]:
        rack["bonus"] = "0.00"
    document["games"][0]["racks"][0]["bonus"] = "50.00"
    response = client_as(UserFactory(password=None)).post(
        IMPORT, json.dumps(_signed(document)), content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    assert "games[0].racks[0].bonus" in json.dumps(response.json())
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("carry_over", "2"),
        ("final_from", "luck"),
        ("turn_seconds", 30),
        ("pool_tie", "coin"),
        ("format", "x" * 33),
    ],
)
def test_an_unknown_variant_value_is_refused(name, value):
    response = client_as(UserFactory(password=None)).post(
        IMPORT, json.dumps(_older(**{name: value})), content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("pool_tie", "ranking"), [("draw", "wins"), ("fewest_tiles", "average")])
def test_the_new_choices_restore(pool_tie, ranking):
    tournament = tournament_import(
        document=_older(pool_tie=pool_tie, ranking=ranking), owner=UserFactory(), slug="newer"
    )
    assert (tournament.pool_tie, tournament.ranking) == (pool_tie, ranking)


def test_a_bonus_league_with_games_restores_with_its_standings(owner):
    match = match_seated(players=4, loss_cap=25, winner_bonus=50, runner_up_bonus=5)
    ids = seated_ids(match)
    points = dict(zip(ids, (0, 31, 15, 10), strict=True))
    game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=p, points=v) for p, v in points.items()],
    )
    played = match.round.tournament
    document = json.loads(json.dumps(tournament_document(tournament=played)))
    assert [r["bonus"] for r in document["games"][0]["racks"]] == ["50.00", "0.00", "0.00", "5.00"]
    copy = tournament_import(document=document, owner=owner, slug="league-copy")
    assert standings_json(copy, owner) == standings_json(played, owner)
    assert sorted(r["score"] for r in standings_json(copy, owner)) == [-25, -15, -5, 100]

"""Penalties and bonuses: what is stored, what is refused."""

from decimal import Decimal

import pytest

from scoring.errors import ConflictError, UserError
from tests.factories import (
    UserFactory,
    tournament_entered,
)
from tests.tournaments.services.support import entry_ids
from tournaments.models import Adjustment, Entry, Seat
from tournaments.selectors.standings import standings_for
from tournaments.services import adjustments, rounds

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- adjustments


def test_adjustment_add_stores_a_penalty_with_its_reason_and_author():
    t = tournament_entered(players=4)
    pid = entry_ids(t)[0]
    user = UserFactory(password=None)
    adj = adjustments.adjustment_add(
        tournament=t, player_id=pid, points="-10", reason="  slow play  ", user=user
    )
    assert adj.points == Decimal(-10) and adj.reason == "slow play" and adj.created_by == user
    assert standings_for(tournament=t)[-1].adjustments == -10


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"reason": " "}, "reason", "Give a reason"),
        ({"points": 10}, "points", "A penalty takes points away"),
        ({"points": -5, "kind": "bonus"}, "points", "A bonus adds points"),
        ({"points": "abc"}, "points", "must be a number"),
        ({"points": "1.005"}, "points", "at most 2 decimals"),
        ({"points": "1e9"}, "points", "at most 2 decimals"),
        ({"points": "NaN"}, "points", "at most 2 decimals"),
        ({"points": 0}, "points", "changes nothing"),
        ({"kind": "bye"}, "kind", "penalty or a bonus"),
        ({"player_id": -1}, "player", "not entered"),
    ],
)
def test_adjustment_add_refuses(kwargs, field, message):
    t = tournament_entered(players=2)
    args = {"tournament": t, "player_id": entry_ids(t)[0], "points": -3, "reason": "late"}
    with pytest.raises(UserError, match=message) as err:
        adjustments.adjustment_add(**{**args, **kwargs})
    assert err.value.field == field
    assert not Adjustment.objects.exists()


def test_adjustment_in_a_round_of_another_tournament_is_refused():
    t = tournament_entered(players=2)
    other = tournament_entered(players=2)
    round_ = rounds.round_seat_next(tournament=other)
    with pytest.raises(UserError, match="another tournament"):
        adjustments.adjustment_add(
            tournament=t, player_id=entry_ids(t)[0], points=-1, reason="x", round=round_
        )


def test_adjustment_delete_keeps_byes():
    t = tournament_entered(players=5, max_table_size=2)
    round_ = rounds.round_seat_next(tournament=t)
    with pytest.raises(ConflictError):
        adjustments.adjustment_delete(adjustment=Adjustment.objects.get(round=round_))
    adj = adjustments.adjustment_add(
        tournament=t, player_id=entry_ids(t)[0], points=2, reason="fair play", kind="bonus"
    )
    adjustments.adjustment_delete(adjustment=adj)
    assert Adjustment.objects.filter(kind="bonus").count() == 0
    assert Seat.objects.filter(round=round_).count() == 4
    assert Entry.objects.filter(tournament=t).count() == 5

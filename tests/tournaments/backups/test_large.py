"""A large event restores whole: every game and rack of a many-table event.

How fast a thousand players restore is measured by ``bench/bench_backups.py``.
"""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.backups.big import big_document
from tournaments.backups.restore import tournament_import
from tournaments.models import Rack

pytestmark = pytest.mark.django_db


def test_a_many_table_event_restores_every_rack():
    document = big_document(players=200, rounds=2, games=4)
    tournament = tournament_import(document=document, owner=UserFactory())
    assert Rack.objects.filter(game__match__round__tournament=tournament).count() == 1_600

"""Rule settings are checked on every write and carried over from the old text columns."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from scoring.errors import UserError
from tests.factories import TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("table_points", {"4": [4, 3, "x", 0]}, "4 whole numbers"),
        ("table_points", {"4": [1, 3, 0, 0]}, "must not grow"),
        ("table_points", {"7": [1]}, "not “7”"),
        ("table_points", [4, 3, 1, 0], "map a table size"),
        ("table_points", {"2": [10**6, 0]}, "from 0 to 1000"),
        ("tie_breaks", ["wins", "luck"], "Unknown tie-break luck"),
        ("tie_breaks", "wins,score", "must be a list"),
        ("tie_breaks", ["wins", "wins"], "listed twice"),
    ],
)
def test_no_path_stores_a_rule_set_the_engine_refuses(field, value, fragment):
    t = TournamentFactory()
    with pytest.raises(UserError, match=fragment), transaction.atomic():
        Tournament.objects.filter(pk=t.pk).update(**{field: value})
    setattr(t, field, value)
    with pytest.raises(ValidationError, match=fragment):
        t.full_clean()
    with pytest.raises(UserError, match=fragment), transaction.atomic():
        t.save()
    t.refresh_from_db()
    assert t.rules().table_points[4] == (4, 3, 1, 0)
    assert t.tie_breaks == ["wins", "table_points", "rack_total"]


@pytest.mark.django_db(transaction=True)
def test_text_settings_are_carried_over_and_broken_ones_repaired():
    executor = MigrationExecutor(connection)
    before = [("tournaments", "0003_joker_penalty_max")]
    after = [("tournaments", "0004_rule_settings_json")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    owner = old.get_model("auth", "User").objects.create(username="o")
    Old = old.get_model("tournaments", "Tournament")
    Old.objects.create(
        name="A", slug="a", owner=owner, table_points_4="5,3,1,0", tie_breaks="score, luck,wins"
    )
    Old.objects.create(name="B", slug="b", owner=owner, table_points_3="4,3,x", tie_breaks="")
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("tournaments", "Tournament")
    a, b = new.objects.get(slug="a"), new.objects.get(slug="b")
    assert a.table_points == {"2": [4, 0], "3": [4, 2, 0], "4": [5, 3, 1, 0]}
    assert a.tie_breaks == ["score", "wins"]
    assert b.table_points["3"] == [4, 2, 0] and b.tie_breaks == []
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

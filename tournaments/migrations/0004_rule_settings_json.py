"""Rule settings as checked JSON: table points as one mapping, tie-breaks as a list.

Existing text settings are carried over; a setting the engine refuses (the
admin once stored such text) falls back to the default for that part, since
the tournament could not be scored with it anyway.
"""

from django.db import migrations

import tournaments.models.rule_fields
from scoring import rules

TIE_BREAK_NAMES = (
    "score", "wins", "table_points", "rack_total", "games", "average",
    "opponents_average", "head_to_head",
)


def _vector(text, size):
    try:
        points = [int(x) for x in text.split(",") if x.strip()]
        rules.Rules(table_points={size: points})
    except (ValueError, rules.RuleError):
        return list(rules.DEFAULT_TABLE_POINTS[size])
    return points


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.all():
        t.table_points = {
            str(n): _vector(getattr(t, f"table_points_{n}"), n) for n in (2, 3, 4)
        }
        names = [n.strip() for n in (t.tie_breaks or "").split(",")]
        t.tie_breaks_list = list(dict.fromkeys(n for n in names if n in TIE_BREAK_NAMES))
        t.save(update_fields=["table_points", "tie_breaks_list"])


def backwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for t in Tournament.objects.all():
        for n in (2, 3, 4):
            setattr(t, f"table_points_{n}", ",".join(str(p) for p in t.table_points[str(n)]))
        t.tie_breaks = ",".join(t.tie_breaks_list)
        t.save(update_fields=["table_points_2", "table_points_3", "table_points_4", "tie_breaks"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_joker_penalty_max")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="table_points",
            field=tournaments.models.rule_fields.TablePointsField(
                default=tournaments.models.rule_fields.table_points_default,
                help_text='Points per place, first place first, for tables of 2, 3 and 4 players, e.g. {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]}; tied places share.',
                verbose_name="table points",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="tie_breaks_list",
            field=tournaments.models.rule_fields.TieBreaksField(default=tournaments.models.rule_fields.tie_breaks_default),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.RemoveField(model_name="tournament", name="table_points_2"),
        migrations.RemoveField(model_name="tournament", name="table_points_3"),
        migrations.RemoveField(model_name="tournament", name="table_points_4"),
        migrations.RemoveField(model_name="tournament", name="tie_breaks"),
        migrations.RenameField(model_name="tournament", old_name="tie_breaks_list", new_name="tie_breaks"),
        migrations.AlterField(
            model_name="tournament",
            name="tie_breaks",
            field=tournaments.models.rule_fields.TieBreaksField(
                default=tournaments.models.rule_fields.tie_breaks_default,
                help_text="In order, from: wins, table_points, score, rack_total, games, average, head_to_head, opponents_average.",
                verbose_name="tie-breaks",
            ),
        ),
    ]

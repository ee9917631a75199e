"""Players' names stored before every path stored them clean, made clean
(``tournaments.names.name_clean``: spaces collapsed and stripped, NFC)."""

from typing import Any

from django.db import migrations

from tournaments.names import name_clean


def names_cleaned(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("tournaments", "Player")
    changed = []
    for player in Player.objects.only("pk", "name").iterator(chunk_size=2000):
        clean = name_clean(player.name)
        if clean and clean != player.name:
            player.name = clean
            changed.append(player)
    Player.objects.bulk_update(changed, ["name"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_ratings_place"),
    ]

    operations = [
        migrations.RunPython(names_cleaned, migrations.RunPython.noop),
    ]

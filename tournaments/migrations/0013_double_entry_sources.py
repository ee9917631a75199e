"""Where each entry of a game came from (a phone session, a key), and refusals kept."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_restore_provenance"),
    ]

    operations: list[migrations.operations.base.Operation] = []

"""Co-organisers invited and accepting; the owner's rights apart."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_event_variants_and_hall"),
    ]

    operations: list[migrations.operations.base.Operation] = []

"""What a restored file said of its authors, kept as text."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_co_organiser_invitations"),
    ]

    operations: list[migrations.operations.base.Operation] = []

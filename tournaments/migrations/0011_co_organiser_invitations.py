"""Co-organisers invited and accepting; the owner's rights apart."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_remove_final_carry_over"),
    ]

    operations: list[migrations.operations.base.Operation] = []

# The boolean carry-over gave way to ``carry_over`` ("0" / "0.5" / "1"); 0009
# copied every tournament's flag into it, so the old column goes.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_event_variants_and_hall"),
    ]

    operations = [
        migrations.RemoveField(
            model_name="tournament",
            name="final_carry_over",
        ),
    ]

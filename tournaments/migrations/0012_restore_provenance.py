"""What a restored file said of its authors, kept as text."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_co_organiser_invitations"),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="adjustment",
            name="original_created_by",
            field=models.CharField(blank=True, default="", max_length=150),
        ),
        migrations.AddField(
            model_name="auditevent",
            name="original_author",
            field=models.CharField(blank=True, default="", max_length=150),
        ),
        migrations.AddField(
            model_name="game",
            name="original_confirmed_by",
            field=models.CharField(blank=True, default="", max_length=150),
        ),
        migrations.AddField(
            model_name="game",
            name="original_recorded_by",
            field=models.CharField(blank=True, default="", max_length=150),
        ),
    ]

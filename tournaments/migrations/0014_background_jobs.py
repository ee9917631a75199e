"""Restore jobs: a large backup's restore, done by the task worker."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_double_entry_sources"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="RestoreJob",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ("finished", models.DateTimeField(blank=True, null=True)),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("queued", "queued"),
                            ("running", "running"),
                            ("done", "done"),
                            ("refused", "refused"),
                        ],
                        default="queued",
                        max_length=10,
                    ),
                ),
                ("document", models.BinaryField(blank=True, default=b"")),
                ("slug", models.CharField(blank=True, default="", max_length=200)),
                ("source", models.CharField(blank=True, default="", max_length=200)),
                ("same_names", models.BooleanField(default=False)),
                ("refusal", models.JSONField(blank=True, default=dict)),
                (
                    "tournament",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="tournaments.tournament",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="restore_jobs",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "restore job",
                "verbose_name_plural": "restore jobs",
            },
        ),
    ]

"""Co-organisers invited and accepting; the owner's rights apart."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_remove_final_carry_over"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AlterField(
            model_name="auditevent",
            name="action",
            field=models.CharField(
                choices=[
                    ("tournament.created", "tournament created"),
                    ("tournament.imported", "tournament imported from a backup"),
                    ("settings.changed", "settings changed"),
                    ("tournament.finished", "tournament finished"),
                    ("tournament.reopened", "tournament reopened"),
                    ("entry.added", "player entered"),
                    ("entry.changed", "entry changed"),
                    ("entry.removed", "entry removed"),
                    ("round.seated", "round seated"),
                    ("round.reseated", "round re-seated"),
                    ("round.deleted", "round deleted"),
                    ("seats.changed", "seats changed"),
                    ("game.recorded", "game recorded"),
                    ("game.corrected", "game corrected"),
                    ("game.deleted", "game deleted"),
                    ("game.restored", "game restored"),
                    ("game.confirmed", "game confirmed"),
                    ("game.disputed", "game disputed"),
                    ("adjustment.added", "adjustment added"),
                    ("adjustment.changed", "adjustment changed"),
                    ("adjustment.deleted", "adjustment deleted"),
                    ("match.token_regenerated", "match link replaced"),
                    ("player.changed", "player changed"),
                    ("club.changed", "club changed"),
                    ("club.deleted", "club deleted"),
                    ("invitation.sent", "co-organiser invited"),
                    ("invitation.accepted", "invitation accepted"),
                    ("invitation.declined", "invitation declined"),
                    ("invitation.withdrawn", "invitation withdrawn"),
                    ("co_organiser.removed", "co-organiser removed"),
                ],
                max_length=32,
            ),
        ),
        migrations.CreateModel(
            name="TournamentDeletion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("tournament_pk", models.BigIntegerField()),
                ("slug", models.CharField(max_length=80)),
                ("name", models.CharField(max_length=160)),
                ("owner", models.CharField(blank=True, max_length=150)),
                ("at", models.DateTimeField(default=django.utils.timezone.now)),
                ("username", models.CharField(blank=True, max_length=150)),
                ("events", models.PositiveIntegerField(default=0)),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "tournament deletion",
                "verbose_name_plural": "tournament deletions",
                "ordering": ["-at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="CoOrganiserInvitation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("username", models.CharField(max_length=150, verbose_name="username")),
                ("created", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "invited_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="invited by",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitations",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "co-organiser invitation",
                "verbose_name_plural": "co-organiser invitations",
                "ordering": ["created", "id"],
                "indexes": [models.Index(fields=["username"], name="invitation_of_username")],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tournament", "username"), name="invitation_once"
                    )
                ],
            },
        ),
    ]

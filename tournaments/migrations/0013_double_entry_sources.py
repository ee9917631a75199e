"""Where each entry of a game came from (a phone session, a key), and refusals kept."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_restore_provenance"),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="game",
            name="entry_sources",
            field=models.JSONField(blank=True, default=list),
        ),
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
                    ("game.refused", "entry refused"),
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
    ]

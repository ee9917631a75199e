"""Players and clubs get a creator (who may change them, with staff).

Existing rows take the owner of the earliest tournament they take part in: a
player's by entry; a club's the earliest naming it, else the earliest a player
of the club is entered in. Rows in no tournament keep no creator (staff only).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _creators_given(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Entry = apps.get_model("tournaments", "Entry")
    Player = apps.get_model("tournaments", "Player")
    Club = apps.get_model("tournaments", "Club")
    # Oldest tournament first, so that the first owner seen for a row wins.
    player_owner: dict = {}
    for player_id, owner_id in Entry.objects.order_by(
        "tournament__created", "tournament_id"
    ).values_list("player_id", "tournament__owner_id"):
        player_owner.setdefault(player_id, owner_id)
    club_owner: dict = {}
    for club_id, owner_id in (
        Tournament.objects.filter(club__isnull=False)
        .order_by("created", "id")
        .values_list("club_id", "owner_id")
    ):
        club_owner.setdefault(club_id, owner_id)
    for club_id, owner_id in (
        Entry.objects.filter(player__club__isnull=False)
        .order_by("tournament__created", "tournament_id")
        .values_list("player__club_id", "tournament__owner_id")
    ):
        club_owner.setdefault(club_id, owner_id)
    for model, owners in ((Player, player_owner), (Club, club_owner)):
        by_owner: dict = {}
        for pk, owner_id in owners.items():
            by_owner.setdefault(owner_id, []).append(pk)
        for owner_id, pks in by_owner.items():
            for start in range(0, len(pks), 500):
                model.objects.filter(pk__in=pks[start : start + 500]).update(created_by_id=owner_id)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_audit_latest"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="created by",
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
                verbose_name="created by",
            ),
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
                    ("adjustment.added", "adjustment added"),
                    ("adjustment.changed", "adjustment changed"),
                    ("adjustment.deleted", "adjustment deleted"),
                    ("match.token_regenerated", "match link replaced"),
                    ("player.changed", "player changed"),
                    ("club.changed", "club changed"),
                    ("club.deleted", "club deleted"),
                ],
                max_length=32,
            ),
        ),
        migrations.RunPython(_creators_given, migrations.RunPython.noop),
    ]

"""The rating rows keyed by their game and player (a composite primary key):
no id column and no counter behind it.

Django does not turn a table's primary key into a composite one in place, so
the rows move to a new table with the new key (their values copied in one
statement), the old table goes, and the new one takes its name, then its
indexes and check."""

import django.db.models.deletion
from django.db import migrations, models

COLUMNS = "game_id, player_id, tournament_id, sort_date, place, mu, sigma, rating"


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0023_ratings_rows_narrow"),
    ]

    operations = [
        migrations.CreateModel(
            name="GameRatingKeyed",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "game",
                        "player",
                        blank=True,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                ("sort_date", models.DateField()),
                ("place", models.CharField(default="", max_length=48)),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("rating", models.IntegerField()),
                (
                    "game",
                    models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournaments.game",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournaments.player",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "game rating",
                "verbose_name_plural": "game ratings",
            },
        ),
        migrations.RunSQL(
            f"INSERT INTO tournaments_gameratingkeyed ({COLUMNS}) "
            f"SELECT {COLUMNS} FROM tournaments_gamerating",
            reverse_sql=(
                f"INSERT INTO tournaments_gamerating ({COLUMNS}) "
                f"SELECT {COLUMNS} FROM tournaments_gameratingkeyed"
            ),
        ),
        migrations.DeleteModel(name="GameRating"),
        migrations.RenameModel(old_name="GameRatingKeyed", new_name="GameRating"),
        migrations.AlterField(
            model_name="gamerating",
            name="game",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to="tournaments.game",
            ),
        ),
        migrations.AlterField(
            model_name="gamerating",
            name="player",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="game_ratings",
                to="tournaments.player",
            ),
        ),
        migrations.AddIndex(
            model_name="gamerating",
            index=models.Index(fields=["place"], name="game_rating_place"),
        ),
        migrations.AddIndex(
            model_name="gamerating",
            index=models.Index(fields=["player", "place"], name="game_rating_player_place"),
        ),
        migrations.AddConstraint(
            model_name="gamerating",
            constraint=models.CheckConstraint(
                condition=models.Q(("sigma__gt", 0)), name="game_rating_sigma_positive"
            ),
        ),
    ]

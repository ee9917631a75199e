"""Ratings (design §6): every rated game moves its players' ratings.

Vocabulary:

* **GameRating**: one player's rating after one rated game (μ, σ and the shown
  rating), with the game's place in the rating order (the tournament's sort
  date, the tournament, round number, table, game number) copied onto the row
  as one text (``place``) so that a replay selects "from this game on"
  through one index; the sort date is kept apart too, for the rating history.
* **PlayerRating**: a player's current rating and how many rated games made it.
* **RatingState**: the one row every rating write locks (so two games recorded
  at once never lose an update), and the earliest place a replay waiting for
  the task worker starts from.

A game is rated when its tournament is rated and public and the game is
confirmed. Rows are written by ``services.ratings`` only and always equal a
full recomputation in the rating order.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Player, Tournament
from tournaments.models.play import Game


class GameRating(models.Model):
    # Keyed by its game and player: no id column and no counter. SQLite's
    # AUTOINCREMENT reads and writes its sequence table (one row per table of
    # the database) at each insert, and a full recomputation's 400,000 inserts
    # spent half their time there.
    pk = models.CompositePrimaryKey("game", "player")
    # Derived data, rebuilt from the games: its references are kept by the
    # rating services and Django's cascades (a game, player or tournament
    # deleted takes its rows along), not checked by the database row by row.
    # A full recomputation writes 4,000,000 rows on a federation's database, and
    # the three checks per row were most of its time.
    # No index of their own: the key (game, player) and the (player, place) index serve.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="ratings", db_index=False, db_constraint=False
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="game_ratings",
        db_index=False,
        db_constraint=False,
    )
    # No index either: a tournament's rows are found by their place, and deleting
    # one (rare) may read the table once; every index costs each of a replay's inserts.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", db_index=False, db_constraint=False
    )
    # The tournament's date (its creation day in the site's time zone when it
    # has none): the rating history's dates.
    sort_date = models.DateField()
    # The place in the rating order: the sort date, the tournament, round,
    # table, game, as one text that sorts as the order does
    # ("2026-11-21/000000000042/00003/00012/00004"): what a replay selects
    # from. Round, table and game have no columns of their own: a full
    # recomputation writes 400,000 rows, each value (and each check of one) a
    # share of it.
    place = models.CharField(max_length=48, default="")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField()

    class Meta:
        verbose_name = _("game rating")
        verbose_name_plural = _("game ratings")
        constraints = [
            models.CheckConstraint(condition=Q(sigma__gt=0), name="game_rating_sigma_positive"),
        ]
        indexes = [
            models.Index(fields=["place"], name="game_rating_place"),
            models.Index(fields=["player", "place"], name="game_rating_player_place"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after game {self.game_id}: {self.rating}"


class PlayerRating(models.Model):
    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField()
    games = models.PositiveIntegerField()

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.CheckConstraint(condition=Q(games__gte=1), name="player_rating_has_games"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="player_rating_sigma_positive"),
        ]
        indexes = [models.Index(fields=["-rating", "player"], name="player_rating_order")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating}"


class RatingState(models.Model):
    """The single row (id 1) that serialises rating writes."""

    # Where a replay queued for the task worker starts: [date, tournament,
    # round, table, game] (ISO date), or null when none waits.
    pending = models.JSONField(null=True, blank=True)
    # Bumped by every rating write.
    generation = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = _("rating state")
        verbose_name_plural = _("rating state")
        constraints = [models.CheckConstraint(condition=Q(id=1), name="rating_state_single")]

    def __str__(self) -> str:
        return f"ratings (generation {self.generation})"

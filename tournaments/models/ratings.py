"""Ratings (design §6): every rated game moves its players' ratings.

Vocabulary:

* **GameRating**: one player's rating after one rated game (μ, σ and the shown
  rating), with the game's place in the rating order (the tournament's sort
  date, the tournament, round number, table, game number) copied onto the row
  so that a replay selects "from this game on" through one index.
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
    # Derived data, rebuilt from the games: its references are kept by the
    # rating services and Django's cascades (a game, player or tournament
    # deleted takes its rows along), not checked by the database row by row.
    # A full recomputation writes 4,000,000 rows on a federation's database, and
    # the three checks per row were most of its time.
    # No index of their own: the unique (game, player) and the (player, place) index serve.
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
    # The place in the rating order: the tournament's date (its creation day in
    # the site's time zone when it has none), the tournament, round, table, game.
    sort_date = models.DateField()
    round_number = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    game_number = models.PositiveSmallIntegerField()
    # The same place as one text that sorts as the order does
    # ("2026-11-21/000000000042/00003/00012/00004"): what a replay selects from.
    place = models.CharField(max_length=48, default="")
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField()

    class Meta:
        verbose_name = _("game rating")
        verbose_name_plural = _("game ratings")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="game_rating_once"),
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

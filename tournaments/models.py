"""Everything in Rackscore that has state.

Vocabulary (see the design document):

* **Club**: a Rummikub club; players may belong to one.
* **Player**: a person who plays; known by name.
* **Tournament**: an event, a league season or a club-night series, with its
  rule set (joker penalty, tie policy, ranking, table points) and its plan
  (rounds, games per round, seating method).
* **Entry**: a player registered in a tournament, active or withdrawn.
* **Round**: one sitting of all matches; numbered from 1 within its tournament
  and belonging to a stage (qualifying, semi-final, final).
* **Match**: one table in one round, with an unguessable private token that
  lets whoever holds the printed QR code enter that match's results.
* **Seat**: a player at a match, position 1..4 (position 1 starts game 1).
* **Game**: one deal at one match, numbered from 1 within the match.
* **Rack**: what a player held when a game ended (tiles, or points + jokers),
  its value and the player's computed score in that game.
* **Adjustment**: an organiser's penalty or bonus (or a bye's score), with a
  reason; kept apart from game scores.
* **GameRevision**: the history of a game: every record, correction and
  deletion, with a snapshot of the racks.

Models hold data and constraints only: writes go through ``services``, reads
through ``selectors``.
"""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring import rules

from .fields import (
    TablePointsField,
    TieBreaksField,
    table_points_default,
    table_points_rules,
    tie_breaks_default,
)

MATCH_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,40}")


def match_token_new() -> str:
    return secrets.token_urlsafe(18)


def match_token_plausible(token: str) -> bool:
    """Whether text could be a match token at all; anything else (a NUL byte,
    a megabyte of text) is turned away before it reaches the database."""
    return MATCH_TOKEN_RE.fullmatch(token) is not None


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        indexes = [models.Index(fields=["name"])]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", _("tournament")
        LEAGUE = "league", _("league")

    class Seating(models.TextChoices):
        RANDOM = "random", _("random")
        SWISS = "swiss", _("Swiss (by standings)")
        BALANCED = "balanced", _("balanced (fewest repeat meetings)")
        MANUAL = "manual", _("manual")

    class Ranking(models.TextChoices):
        SCORE = "score", _("total score")
        TABLE_POINTS = "table_points", _("table points")
        AVERAGE = "average", _("average score per game")

    class PoolTie(models.TextChoices):
        SHARE = "share", _("joint winners share")
        FEWEST_TILES = "fewest_tiles", _("fewest tiles wins")

    class Paper(models.TextChoices):
        A4 = "A4", "A4"
        LETTER = "Letter", "Letter"

    name = models.CharField(_("name"), max_length=160)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    date = models.DateField(_("date"), null=True, blank=True)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
        verbose_name=_("club"),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="tournaments",
        verbose_name=_("owner"),
    )
    public = models.BooleanField(_("public"), default=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PLANNED
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.TOURNAMENT)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    paper = models.CharField(_("paper size"), max_length=8, choices=Paper.choices, default="A4")

    # The rule set.
    joker_penalty = models.PositiveSmallIntegerField(_("joker penalty"), default=30)
    pool_tie = models.CharField(
        _("tie for the lowest rack"), max_length=16, choices=PoolTie.choices, default="share"
    )
    ranking = models.CharField(
        _("ranking"), max_length=16, choices=Ranking.choices, default=Ranking.SCORE
    )
    table_points = TablePointsField(
        _("table points"),
        default=table_points_default,
        help_text=_(
            "Points per place, first place first, for tables of 2, 3 and 4 players, "
            'e.g. {"2": [4, 0], "3": [4, 2, 0], "4": [4, 3, 1, 0]}; tied places share.'
        ),
    )
    tie_breaks = TieBreaksField(
        _("tie-breaks"),
        default=tie_breaks_default,
        help_text=_(
            "In order, from: wins, table_points, score, rack_total, games, average, "
            "head_to_head, opponents_average."
        ),
    )
    min_games = models.PositiveSmallIntegerField(
        _("minimum games to be ranked by average"), default=0
    )

    # The plan.
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    games_per_round = models.PositiveSmallIntegerField(_("games per round"), default=4)
    seating = models.CharField(
        _("seating"), max_length=16, choices=Seating.choices, default=Seating.SWISS
    )
    max_table_size = models.PositiveSmallIntegerField(_("largest table"), default=4)
    bye_score = models.DecimalField(_("score for a bye"), max_digits=8, decimal_places=2, default=0)
    seed = models.PositiveIntegerField(_("seating seed"), default=0)
    semifinal_players = models.PositiveSmallIntegerField(_("players in the semi-finals"), default=0)
    final_carry_over = models.BooleanField(
        _("carry qualifying points into the final"), default=False
    )

    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(max_table_size__gte=2) & Q(max_table_size__lte=4),
                name="tournament_table_size_2_4",
            ),
            models.CheckConstraint(
                condition=Q(games_per_round__gte=1) & Q(games_per_round__lte=30),
                name="tournament_games_per_round_1_30",
            ),
            models.CheckConstraint(condition=Q(rounds__lte=100), name="tournament_rounds_max"),
            models.CheckConstraint(
                condition=Q(joker_penalty__lte=rules.JOKER_PENALTY_MAX),
                name="tournament_joker_penalty_max",
                violation_error_message=_("The joker penalty can be at most 1000 points."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def rules(self) -> rules.Rules:
        return rules.Rules(
            joker_penalty=self.joker_penalty,
            pool_tie=self.pool_tie,
            table_points=table_points_rules(self.table_points),
        )


class Entry(models.Model):
    """A player registered in a tournament.

    ``active`` players are seated in the next round; ``absent`` ones are entered
    but not here for it (a late arrival not yet checked in, a no-show, a league
    member who skips a club night); ``withdrawn`` ones have left the event. Absent
    and withdrawn players keep the results they already played.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("active")
        ABSENT = "absent", _("absent (checked out)")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ACTIVE)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class Round(models.Model):
    class Stage(models.TextChoices):
        QUALIFYING = "qualifying", _("qualifying")
        SEMIFINAL = "semifinal", _("semi-final")
        FINAL = "final", _("final")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=16, choices=Stage.choices, default=Stage.QUALIFYING)
    games_per_match = models.PositiveSmallIntegerField(default=4)
    date = models.DateField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('round')} {self.number}"


class Match(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=40, unique=True, default=match_token_new, editable=False)

    class Meta:
        ordering = ["round", "table"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="match_table_once"),
            models.CheckConstraint(condition=Q(table__gte=1), name="match_table_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – {_('table')} {self.table}"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    # Denormalised from match.round so the database itself can refuse a
    # player seated twice in one round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["match", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_once"),
            models.CheckConstraint(
                condition=Q(position__gte=1) & Q(position__lte=4), name="seat_position_1_4"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.position})"


class Game(models.Model):
    class Ending(models.TextChoices):
        RUMMIKUB = "rummikub", _("Rummikub (a rack emptied)")
        POOL_EXHAUSTED = "pool_exhausted", _("pool exhausted")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    ending = models.CharField(max_length=16, choices=Ending.choices)
    # Bumped by every correction; the API's ETag.
    version = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(ending__in=rules.ENDINGS), name="game_ending_known"),
        ]

    def __str__(self) -> str:
        return f"{self.match} – {_('game')} {self.number}"


class Rack(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="racks")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="racks")
    position = models.PositiveSmallIntegerField()
    # The tile list as entered (canonical form), or blank when entered as points.
    tiles = models.CharField(max_length=400, blank=True)
    entered_as_tiles = models.BooleanField(default=False)
    points = models.PositiveSmallIntegerField()
    jokers = models.PositiveSmallIntegerField(default=0)
    rack_value = models.PositiveIntegerField()
    score = models.DecimalField(max_digits=8, decimal_places=2)
    winner = models.BooleanField(default=False)
    table_points = models.DecimalField(max_digits=6, decimal_places=2, default=0)

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("rack")
        verbose_name_plural = _("racks")
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rack_player_once"),
            models.UniqueConstraint(fields=["game", "position"], name="rack_position_once"),
            models.CheckConstraint(
                condition=Q(points__lte=rules.TILE_SET_FACE_TOTAL), name="rack_points_max"
            ),
            models.CheckConstraint(condition=Q(jokers__lte=2), name="rack_jokers_max"),
            models.CheckConstraint(
                condition=Q(rack_value__gte=F("points")), name="rack_value_covers_points"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.score}"


class Adjustment(models.Model):
    class Kind(models.TextChoices):
        PENALTY = "penalty", _("penalty")
        BONUS = "bonus", _("bonus")
        BYE = "bye", _("bye")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="adjustments")
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="adjustments"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PENALTY)
    points = models.DecimalField(_("points"), max_digits=8, decimal_places=2)
    reason = models.CharField(_("reason"), max_length=200)
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "created"]
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.points:+} ({self.reason})"


class GameRevision(models.Model):
    """One step in a game's history; kept even after the game is deleted."""

    class Action(models.TextChoices):
        RECORDED = "recorded", _("recorded")
        CORRECTED = "corrected", _("corrected")
        DELETED = "deleted", _("deleted")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="revisions")
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="revisions"
    )
    game_number = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField()
    action = models.CharField(max_length=16, choices=Action.choices)
    snapshot = models.JSONField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "game_number", "at", "id"]
        verbose_name = _("game revision")
        verbose_name_plural = _("game revisions")

    def __str__(self) -> str:
        return f"{self.match} – {_('game')} {self.game_number} v{self.version} {self.action}"

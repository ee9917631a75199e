"""Rounds and what is played in them: matches, seats, games, racks and adjustments.

A match's *token* is the secret in its printed QR code; it grants recording
that match's games. A game's *state* says whether it is trusted yet: under the
tournament's ``confirmation`` setting a game is ``entered`` until an organiser
confirms it (or a second, identical entry does), and ``disputed`` when a second
entry differed (``second_entry`` then holds that other version).
"""

from __future__ import annotations

import hashlib
import re
import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring import rules
from tournaments.models.event import Player, Tournament

MATCH_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{1,40}")


def match_token_new() -> str:
    return secrets.token_urlsafe(18)


def match_token_digest(token: str) -> str:
    """A token's sha256: what the audit trail keeps of a replaced one."""
    return hashlib.sha256(token.encode()).hexdigest()


def match_token_plausible(token: str) -> bool:
    """Whether text could be a match token at all; anything else (a NUL byte,
    a megabyte of text) is turned away before it reaches the database."""
    return MATCH_TOKEN_RE.fullmatch(token) is not None


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
    # The round clock (tournament.round_minutes): seconds already run, and when it
    # last started if it is running now.
    clock_elapsed = models.PositiveIntegerField(default=0)
    clock_started = models.DateTimeField(null=True, blank=True)
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
        TIME_UP = "time_up", _("time up")

    class State(models.TextChoices):
        ENTERED = "entered", _("entered, to confirm")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed: two entries differ")

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
    state = models.CharField(max_length=16, choices=State.choices, default=State.CONFIRMED)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The other version of a disputed game: {"ending", "racks": [entered racks], "who"}.
    second_entry = models.JSONField(null=True, blank=True)
    # Where each entry of it came from, first entry first (``services.results.EntrySource``:
    # how it came, the user, digests of the phone's session and of its key), under double entry.
    entry_sources = models.JSONField(default=list, blank=True)
    # Who a restored backup said entered and confirmed it: text only, never an account.
    original_recorded_by = models.CharField(max_length=150, blank=True, default="")
    original_confirmed_by = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(ending__in=rules.ENDINGS), name="game_ending_known"),
            models.CheckConstraint(
                condition=Q(state__in=["entered", "confirmed", "disputed"]),
                name="game_state_known",
            ),
            models.CheckConstraint(
                condition=Q(state="disputed") | Q(second_entry__isnull=True),
                name="game_second_entry_only_disputed",
            ),
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
    # The event's winner or runner-up bonus, kept apart from the zero-sum score.
    bonus = models.DecimalField(max_digits=8, decimal_places=2, default=0)
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
    # Who a restored backup said made it: text only, never an account.
    original_created_by = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        ordering = ["tournament", "created"]
        verbose_name = _("adjustment")
        verbose_name_plural = _("adjustments")
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.points:+} ({self.reason})"

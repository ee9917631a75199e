"""A club's home: its seasons of evenings and the invitations to co-organise it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Club


class Season(models.Model):
    """A club's evenings between two dates, and how they add up (design §5).

    An evening is a tournament whose ``season`` names this season.
    """

    class EveningPoints(models.TextChoices):
        SCORE = "score", _("the evening's total score")
        RANK_POINTS = "rank_points", _("rank points (1000 for first, 0 for last)")
        TABLE_POINTS = "table_points", _("the evening's table points")

    class Guests(models.TextChoices):
        EXCLUDE = "exclude", _("left out of the season table")
        INCLUDE = "include", _("ranked like members")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    starts = models.DateField(_("starts"))
    ends = models.DateField(_("ends"))
    evening_points = models.CharField(
        _("points of an evening"),
        max_length=16,
        choices=EveningPoints.choices,
        default=EveningPoints.RANK_POINTS,
    )
    best_of = models.PositiveSmallIntegerField(
        _("evenings counted"),
        default=0,
        help_text=_("Count only each player's best evenings; 0 counts them all."),
    )
    min_evenings = models.PositiveSmallIntegerField(
        _("evenings to be ranked"),
        default=0,
        help_text=_("Players with fewer evenings are listed apart, not yet qualified."),
    )
    guests = models.CharField(
        _("guests"), max_length=16, choices=Guests.choices, default=Guests.EXCLUDE
    )
    # The settings each new evening is created with (tournament fields by name:
    # the rules and the plan); empty: the club_night preset's.
    evening_settings = models.JSONField(_("settings of an evening"), default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("created by"),
    )

    class Meta:
        ordering = ["-starts", "-id"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends__gte=F("starts")), name="season_ends_after_starts"
            ),
            models.CheckConstraint(
                condition=Q(evening_points__in=["score", "rank_points", "table_points"]),
                name="season_evening_points_known",
            ),
            models.CheckConstraint(
                condition=Q(guests__in=["exclude", "include"]), name="season_guests_known"
            ),
            models.CheckConstraint(condition=Q(best_of__lte=366), name="season_best_of_max"),
            models.CheckConstraint(
                condition=Q(min_evenings__lte=366), name="season_min_evenings_max"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ClubInvitation(models.Model):
    """An invitation to co-organise a club, waiting for its answer; by username,
    as a tournament's (``CoOrganiserInvitation``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    username = models.CharField(_("username"), max_length=150)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created", "id"]
        verbose_name = _("club invitation")
        verbose_name_plural = _("club invitations")
        constraints = [
            models.UniqueConstraint(fields=["club", "username"], name="club_invitation_once"),
        ]
        indexes = [models.Index(fields=["username"], name="club_invitation_of_username")]

    def __str__(self) -> str:
        return f"{self.username} @ {self.club}"

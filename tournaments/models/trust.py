"""What makes results trustworthy: the audit trail and the API's idempotency keys.

Vocabulary:

* an **AuditEvent** is one change to a tournament (its settings, entries,
  rounds, seats, games, racks, adjustments, match links): when, who, the
  *action*, the object it concerns and its *old* and *new* values. *Who* is a
  user, a match link (``by_link``: the table's private token, named by its
  round and table) or, when neither, the system (a command). A game's events
  are its history: each carries the game's snapshot, so a deleted game can be
  restored from its last one. Events are written by the services, never by
  signals, and kept when what they describe is deleted.
* a **TournamentDeletion** is the record a deleted tournament leaves: which
  one (its id, slug, name and owner), who deleted it and when. The tournament's
  own trail goes with it; this record does not.
* an **IdempotencyKey** is a client's ``Idempotency-Key`` for one write, kept
  with its *caller* (``user:<id>`` or ``match:<id>``), a fingerprint of the
  request and, once answered, the answer to replay for 24 hours.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Club, Tournament
from tournaments.models.play import Match


class AuditEvent(models.Model):
    class Action(models.TextChoices):
        TOURNAMENT_CREATED = "tournament.created", _("tournament created")
        TOURNAMENT_IMPORTED = "tournament.imported", _("tournament imported from a backup")
        SETTINGS_CHANGED = "settings.changed", _("settings changed")
        TOURNAMENT_FINISHED = "tournament.finished", _("tournament finished")
        TOURNAMENT_REOPENED = "tournament.reopened", _("tournament reopened")
        ENTRY_ADDED = "entry.added", _("player entered")
        ENTRY_CHANGED = "entry.changed", _("entry changed")
        ENTRY_REMOVED = "entry.removed", _("entry removed")
        ROUND_SEATED = "round.seated", _("round seated")
        ROUND_RESEATED = "round.reseated", _("round re-seated")
        ROUND_DELETED = "round.deleted", _("round deleted")
        SEATS_CHANGED = "seats.changed", _("seats changed")
        GAME_RECORDED = "game.recorded", _("game recorded")
        GAME_CORRECTED = "game.corrected", _("game corrected")
        GAME_DELETED = "game.deleted", _("game deleted")
        GAME_RESTORED = "game.restored", _("game restored")
        GAME_CONFIRMED = "game.confirmed", _("game confirmed")
        GAME_DISPUTED = "game.disputed", _("game disputed")
        # An entry refused (a second entry from the same phone, a game recorded otherwise):
        # what was sent, kept as a trace; nothing else is stored.
        GAME_REFUSED = "game.refused", _("entry refused")
        ADJUSTMENT_ADDED = "adjustment.added", _("adjustment added")
        ADJUSTMENT_CHANGED = "adjustment.changed", _("adjustment changed")
        ADJUSTMENT_DELETED = "adjustment.deleted", _("adjustment deleted")
        TOKEN_REGENERATED = "match.token_regenerated", _("match link replaced")
        # A player or club of the tournament changed (or went) by its creator or staff.
        PLAYER_CHANGED = "player.changed", _("player changed")
        CLUB_CHANGED = "club.changed", _("club changed")
        CLUB_DELETED = "club.deleted", _("club deleted")
        # Who organises it: invitations and their answers (the owner's and the invited user's).
        INVITATION_SENT = "invitation.sent", _("co-organiser invited")
        INVITATION_ACCEPTED = "invitation.accepted", _("invitation accepted")
        INVITATION_DECLINED = "invitation.declined", _("invitation declined")
        INVITATION_WITHDRAWN = "invitation.withdrawn", _("invitation withdrawn")
        CO_ORGANISER_REMOVED = "co_organiser.removed", _("co-organiser removed")
        # A club's own trail (``club``, no tournament): made, its members, who organises it
        # (the invitation actions above, and club.changed, recorded there too).
        CLUB_CREATED = "club.created", _("club created")
        MEMBER_ADDED = "member.added", _("member added")
        MEMBER_REMOVED = "member.removed", _("member left the club")

    # The tournament the change is in; None for a change to a club alone (``club``).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="audit"
    )
    # A club's own trail: its organisers see it; it goes with the club.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, null=True, blank=True, related_name="audit"
    )
    at = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The user's name when it was done: kept if the user goes, carried by backups.
    username = models.CharField(max_length=150, blank=True)
    # Who a restored backup said made the change: text only, never an account.
    original_author = models.CharField(max_length=150, blank=True, default="")
    by_link = models.BooleanField(default=False)
    action = models.CharField(max_length=32, choices=Action.choices)
    object_id = models.BigIntegerField(null=True, blank=True)
    match = models.ForeignKey(
        Match, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit"
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table = models.PositiveSmallIntegerField(null=True, blank=True)
    game_number = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(null=True, blank=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-at", "-id"]
        verbose_name = _("audit event")
        verbose_name_plural = _("audit events")
        indexes = [
            models.Index(fields=["tournament", "-at", "-id"], name="audit_newest_first"),
            models.Index(fields=["match", "at"], name="audit_of_match"),
            # The tournament's version (its latest event) in one index probe.
            models.Index(fields=["tournament", "-id"], name="audit_latest"),
            models.Index(fields=["club", "-at", "-id"], name="audit_of_club"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(tournament__isnull=False) | Q(club__isnull=False),
                name="audit_of_tournament_or_club",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}"

    @property
    def object_type(self) -> str:
        """What the event concerns: ``tournament``, ``settings``, ``entry``, ``round``,
        ``seats``, ``game``, ``adjustment`` or ``match``."""
        return self.action.split(".", 1)[0]

    @property
    def via(self) -> str:
        """How the change came: ``user``, ``match_link`` or ``system``."""
        if self.username:
            return "user"
        return "match_link" if self.by_link else "system"

    def who(self) -> str:
        """Who made the change, for a person, in the active language."""
        if self.username:
            return self.username
        if self.original_author:
            return gettext("%(name)s (in the original)") % {"name": self.original_author}
        if self.by_link:
            return gettext("match link of table %(table)s, round %(round)s") % {
                "table": self.table,
                "round": self.round_number,
            }
        return gettext("the system")


class TournamentDeletion(models.Model):
    # The tournament's id, slug and name when it went (no key: it is gone).
    tournament_pk = models.BigIntegerField()
    slug = models.CharField(max_length=80)
    name = models.CharField(max_length=160)
    owner = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Who deleted it, by name: kept if the user goes; empty for the system.
    username = models.CharField(max_length=150, blank=True)
    # How many events its trail held.
    events = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("tournament deletion")
        verbose_name_plural = _("tournament deletions")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.slug}"


class IdempotencyKey(models.Model):
    caller = models.CharField(max_length=40)
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64)
    created = models.DateTimeField(default=timezone.now, db_index=True)
    # Null while the first request is being answered.
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    content = models.BinaryField(blank=True, default=b"")
    headers = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(fields=["caller", "key"], name="idempotency_key_once"),
            models.CheckConstraint(condition=~Q(key=""), name="idempotency_key_not_blank"),
        ]

    def __str__(self) -> str:
        return f"{self.caller} {self.key}"

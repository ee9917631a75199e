"""Work done in the background for a user: a large backup's restore.

Vocabulary: a **RestoreJob** is one backup restore handed to the task worker
(``tournaments.tasks``) because its document is too large to restore within a
request. It keeps who started it (the restored tournament's owner, and the
only one who may follow it), the *document* as it was uploaded (data only:
nothing in it is believed about who anyone is), what was asked (the slug, the
file's name, whether to use the user's own players of the same names) and its
*state*: queued, running, then done (with the new tournament) or refused
(with the refusal, a translatable template and its parameters, rendered in
the reader's language when shown). The document is emptied once the restore
is over.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RestoreJob(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        REFUSED = "refused", _("refused")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="restore_jobs"
    )
    created = models.DateTimeField(default=timezone.now, db_index=True)
    finished = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    # The uploaded bytes, zlib-compressed (a backup's JSON shrinks about tenfold).
    document = models.BinaryField(blank=True, default=b"")
    slug = models.CharField(max_length=200, blank=True, default="")
    source = models.CharField(max_length=200, blank=True, default="")
    same_names = models.BooleanField(default=False)
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # A refusal: {"template", "params", "field", "code", "status"}.
    refusal = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name = _("restore job")
        verbose_name_plural = _("restore jobs")

    def __str__(self) -> str:
        return f"restore {self.pk} ({self.state})"

"""Backups on the organiser desk: download a tournament's backup, and restore
one as a new tournament.

Vocabulary: the *backup* is the tournament's document
(``tournaments.backups.document``), downloaded as a ``.json`` file by its
organisers; a *restore* uploads such a file and makes it a new tournament,
owned by whoever is logged in, at the slug given or the file's own. Its
players are made anew as the user's, unless the user asks to *use their own
players with the same names* (``restore.player_map_by_name``: only players
they created, one of a name). A refused file shows the reason at the field
it concerns (the file or the slug) and stores nothing. A large file (over
``RACKSCORE_BACKUP_REQUEST_MB`` or ``RACKSCORE_BACKUP_REQUEST_GAMES`` games) is
read and recognised here, then restored by the task worker: the answer is its
*progress page* (202), which refreshes itself until the tournament is restored
or the file refused, and which only its starter may see.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from scoring.errors import UserError
from tournaments.backups.checks import (
    document_taken,
    file_max,
    request_restorable,
    too_large,
)
from tournaments.backups.document import document_text, tournament_document
from tournaments.backups.restore import (
    player_map_by_name,
    tournament_import,
)
from tournaments.models import Tournament
from tournaments.selectors.background import restore_job_of
from tournaments.services.restore_jobs import refusal_text
from tournaments.tasks import restore_enqueue
from tournaments.web.pages import LOGIN_URL, organiser_required


class RestoreForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Backup file"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
        help_text=gettext_lazy("A .json file downloaded from a tournament's desk."),
    )
    slug = forms.SlugField(
        label=gettext_lazy("Slug"),
        required=False,
        max_length=80,
        help_text=gettext_lazy(
            "The restored tournament's address; leave it empty to keep the backup's own."
        ),
    )

    same_names = forms.BooleanField(
        label=gettext_lazy("Use my own players with the same names"),
        required=False,
        help_text=gettext_lazy(
            "Players you created whose names match the backup's exactly are used; every "
            "other player of the backup is made anew, as yours."
        ),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > file_max():
            raise forms.ValidationError(too_large().render(gettext))
        return upload

    def user_error_add(self, error: UserError) -> None:
        """Show a refusal at the slug, or else at the file."""
        self.add_error("slug" if error.field == "slug" else "file", error.render(gettext))


@require_safe
@organiser_required
def tournament_backup(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's backup, as a file to keep."""
    text = document_text(tournament_document(tournament=tournament))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    name = f"{tournament.slug}-{timezone.localdate():%Y-%m-%d}.rackscore.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _page(request: HttpRequest, form: RestoreForm, status: int = 200) -> HttpResponse:
    return render(request, "tournaments/desk/restore.html", {"form": form}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required(login_url=LOGIN_URL)
def tournament_restore(request: HttpRequest) -> HttpResponse:
    """The upload form (GET); the restore (POST), back to the form when refused."""
    if request.method != "POST":
        return _page(request, RestoreForm())
    form = RestoreForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, form, status=400)
    upload = form.cleaned_data["file"]
    try:
        data = upload.read()
        # Too large to read within the request: glanced at here, read by the worker.
        document = document_taken(data)
        if document is None or not request_restorable(size=len(data), document=document):
            job = restore_enqueue(
                user=request.user,
                data=data,
                document=document,
                slug=form.cleaned_data["slug"] or "",
                same_names=form.cleaned_data["same_names"],
                source=upload.name or "",
            )
            return _job_page(request, job.pk, status=202)
        mapped = (
            player_map_by_name(document=document, owner=request.user)
            if form.cleaned_data["same_names"]
            else None
        )
        tournament = tournament_import(
            document=document,
            owner=request.user,
            slug=form.cleaned_data["slug"] or None,
            user=request.user,
            source=upload.name or "",
            player_map=mapped,
        )
    except UserError as error:
        form.user_error_add(error)
        return _page(request, form, status=400)
    messages.success(
        request,
        gettext("Tournament “%(name)s” restored from the backup.") % {"name": tournament.name},
    )
    return HttpResponseRedirect(reverse("web:organise", args=[tournament.slug]))


REFRESH_SECONDS = 3


def _job_page(request: HttpRequest, job_id: int, status: int = 200) -> HttpResponse:
    job = restore_job_of(user=request.user, job_id=job_id)
    if job is None:
        raise Http404
    url = reverse("web:tournament-restore-job", args=[job.pk])
    response = render(
        request,
        "tournaments/desk/restore_job.html",
        {
            "job": job,
            "refusal": refusal_text(job.refusal) if job.refusal else "",
            "progress_url": url,
            "refresh_seconds": REFRESH_SECONDS,
        },
        status=status,
    )
    if status == 202:
        response["Location"] = url
    return response


@require_safe
@login_required(login_url=LOGIN_URL)
def tournament_restore_job(request: HttpRequest, job_id: int) -> HttpResponse:
    """A large restore's progress: its starter's only (anyone else: 404); refreshes
    itself until the tournament is restored or the file refused."""
    return _job_page(request, job_id)

"""Clubs on the web: the list (``/clubs/``), a club's page (``/c/<slug>/``),
creating one (``/c/new/``), editing it and who organises it (``/c/<slug>/edit/``),
deleting it, and the answers to an invitation to co-organise one.

Vocabulary: a *shown* club is the one a page's slug names, if the user may
see it (``selectors.clubs.club_shown``); any other slug is a 404, so that a
private club's existence is not told. A *club organiser page* needs a login
(an anonymous visitor is sent to the login page), a shown club (else 404) and
one of its organisers (else 403: ``access.club_organiser``); the creator's
rights (visibility, who organises it, deleting it) are refused by the
services with 403. Each action is a POST that runs one service and comes back
with a message; a refused form is drawn again with the message at its field
and nothing stored. The members pages are in ``club_members``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.errors import UserError
from tournaments.access import club_editable, club_organiser
from tournaments.models import Club, ClubInvitation
from tournaments.selectors.clubs import (
    club_invitation_pending,
    club_invitations_pending,
    club_invitations_waiting,
    club_page,
    club_shown,
    clubs_listed,
)
from tournaments.services import clubs as club_services
from tournaments.services.clubs import SLUG_MAX
from tournaments.services.co_organisers import USERNAME_MAX
from tournaments.web.pages import LOGIN_URL
from tournaments.web.ratings import rating_list_top
from tournaments.web.seasons import club_seasons_context

P = ParamSpec("P")
NAME_MAX = Club._meta.get_field("name").max_length or 120


def club_of(request: HttpRequest, slug: str) -> Club:
    """The club with that slug if the user may see it; else 404."""
    club = club_shown(user=request.user, slug=slug)
    if club is None:
        raise Http404
    return club


def club_organiser_required(
    view: Callable[Concatenate[HttpRequest, Club, P], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Log in, see the club (else 404), organise it (else 403)."""

    @login_required(login_url=LOGIN_URL)
    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        club = club_of(request, slug)
        if not club_organiser(user=request.user, club=club):
            raise PermissionDenied
        return view(request, club, *args, **kwargs)

    return wrapped


def club_url(club: Club, name: str = "web:club") -> str:
    return reverse(name, kwargs={"slug": club.slug})


def service_run(request: HttpRequest, action: Callable[[], str]) -> None:
    """Run a service; its user error becomes a message on the next page."""
    try:
        done = action()
    except UserError as error:
        messages.error(request, error.render(gettext))
    else:
        messages.success(request, done)


# ----------------------------------------------------------------------------- forms


class ClubForm(forms.Form):
    """A club's name, city, address and visibility (the creator's alone)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=NAME_MAX)
    city = forms.CharField(label=gettext_lazy("City"), max_length=NAME_MAX, required=False)
    slug = forms.CharField(
        label=gettext_lazy("Address"),
        max_length=SLUG_MAX,
        required=False,
        help_text=gettext_lazy(
            "The club's page is /c/<address>/: letters, numbers and hyphens. "
            "Left blank, it is made from the name."
        ),
    )
    public = forms.BooleanField(
        label=gettext_lazy("Public"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Anyone may see a public club's page. A private club is seen by its organisers only."
        ),
    )

    def __init__(self, *args: Any, public_editable: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not public_editable:
            self.fields["public"].disabled = True
            self.fields["public"].help_text = gettext_lazy(
                "Only the club's creator may make it public or private."
            )

    def user_error_add(self, error: UserError) -> None:
        field = error.field if error.field in self.fields else None
        self.add_error(field, error.render(gettext))


class InviteForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=USERNAME_MAX)


# ----------------------------------------------------------------------------- pages


@require_safe
def clubs_list(request: HttpRequest) -> HttpResponse:
    """Every club the visitor may see; a logged-in user's own first, and their
    invitations to co-organise one."""
    listed = clubs_listed(user=request.user)
    return render(
        request,
        "tournaments/clubs/list.html",
        {
            "mine": [c for c in listed if getattr(c, "organised", False)],
            "clubs": [c for c in listed if not getattr(c, "organised", False)],
            "invitations": list(club_invitations_pending(user=request.user)),
        },
    )


@require_safe
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_of(request, slug)
    return render(
        request,
        "tournaments/clubs/detail.html",
        {
            "page": club_page(user=request.user, club=club),
            "club": club,
            **rating_list_top(request=request, club=club),
            **club_seasons_context(request=request, club=club),
        },
    )


def _form_page(
    request: HttpRequest, form: ClubForm, club: Club | None, status: int = 200
) -> HttpResponse:
    context: dict[str, Any] = {"form": form, "club": club}
    if club is not None:
        editable = club_editable(user=request.user, club=club)
        context |= {
            "editable": editable,
            "co_organisers": sorted(u.get_username() for u in club.co_organisers.all()),
            "invited": club_invitations_waiting(club=club),
            "invite_form": InviteForm(),
        }
    return render(request, "tournaments/clubs/form.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required(login_url=LOGIN_URL)
def club_new(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _form_page(request, ClubForm(), None)
    form = ClubForm(request.POST)
    if form.is_valid():
        try:
            club = club_services.club_create(created_by=request.user, **form.cleaned_data)
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(request, gettext("Club “%(name)s” created.") % {"name": club.name})
            return HttpResponseRedirect(club_url(club))
    return _form_page(request, form, None, status=400)


@require_http_methods(["GET", "HEAD", "POST"])
@club_organiser_required
def club_edit(request: HttpRequest, club: Club) -> HttpResponse:
    editable = club_editable(user=request.user, club=club)
    initial = {"name": club.name, "city": club.city, "slug": club.slug, "public": club.public}
    if request.method != "POST":
        return _form_page(request, ClubForm(initial=initial, public_editable=editable), club)
    form = ClubForm(request.POST, initial=initial, public_editable=editable)
    if form.is_valid():
        changes = dict(form.cleaned_data)
        try:
            club = club_services.club_update(club=club, user=request.user, **changes)
        except UserError as error:
            form.user_error_add(error)
        else:
            messages.success(request, gettext("Club saved."))
            return HttpResponseRedirect(club_url(club))
    return _form_page(request, form, club, status=400)


@require_http_methods(["GET", "HEAD", "POST"])
@club_organiser_required
def club_delete(request: HttpRequest, club: Club) -> HttpResponse:
    """Ask first (GET); delete (POST, the creator's right: else 403)."""
    if not club_editable(user=request.user, club=club):
        raise PermissionDenied
    if request.method != "POST":
        return render(request, "tournaments/clubs/delete_confirm.html", {"club": club})
    club_services.club_delete(club=club, user=request.user)
    messages.success(request, gettext("Club “%(name)s” deleted.") % {"name": club.name})
    return HttpResponseRedirect(reverse("web:clubs"))


# ----------------------------------------------------------------------------- who organises it


@require_POST
@club_organiser_required
def club_invite(request: HttpRequest, club: Club) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("username", []):
            messages.error(request, str(error))
        return HttpResponseRedirect(club_url(club, "web:club-edit"))
    username = form.cleaned_data["username"]

    def act() -> str:
        club_services.club_invitation_send(club=club, by=request.user, username=username)
        return gettext("“%(username)s” is invited to co-organise the club.") % {
            "username": username.strip()
        }

    service_run(request, act)
    return HttpResponseRedirect(club_url(club, "web:club-edit"))


@require_POST
@club_organiser_required
def club_invitation_withdraw(request: HttpRequest, club: Club, username: str) -> HttpResponse:
    def act() -> str:
        club_services.club_invitation_withdraw(club=club, by=request.user, username=username)
        return gettext("Invitation to “%(username)s” withdrawn.") % {"username": username}

    service_run(request, act)
    return HttpResponseRedirect(club_url(club, "web:club-edit"))


@require_POST
@club_organiser_required
def club_co_organiser_remove(request: HttpRequest, club: Club, username: str) -> HttpResponse:
    leaving = request.user.get_username() == username

    def act() -> str:
        club_services.club_co_organiser_remove(club=club, by=request.user, username=username)
        if leaving:
            return gettext("You no longer co-organise “%(name)s”.") % {"name": club.name}
        return gettext("“%(username)s” no longer co-organises the club.") % {"username": username}

    service_run(request, act)
    if leaving:
        return HttpResponseRedirect(reverse("web:clubs"))
    return HttpResponseRedirect(club_url(club, "web:club-edit"))


def _invitation(request: HttpRequest, invitation_id: int) -> ClubInvitation:
    found = club_invitation_pending(user=request.user, pk=invitation_id)
    if found is None:
        raise Http404
    return found


@require_POST
@login_required(login_url=LOGIN_URL)
def club_invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _invitation(request, invitation_id)
    try:
        club = club_services.club_invitation_accept(invitation=invitation, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
        return HttpResponseRedirect(reverse("web:clubs"))
    messages.success(request, gettext("You co-organise “%(name)s” now.") % {"name": club.name})
    return HttpResponseRedirect(club_url(club))


@require_POST
@login_required(login_url=LOGIN_URL)
def club_invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _invitation(request, invitation_id)

    def act() -> str:
        club_services.club_invitation_decline(invitation=invitation, user=request.user)
        return gettext("Invitation to co-organise “%(name)s” declined.") % {
            "name": invitation.club.name
        }

    service_run(request, act)
    return HttpResponseRedirect(reverse("web:clubs"))

"""Invitations to co-organise, answered on the web: the list of one's own
(``/invitations/``, also on the home page), accepting and declining.

Vocabulary: a *pending* invitation is one addressed to the logged-in user and
not answered yet (``selectors.tournaments.invitations_pending``); accepting makes
them a co-organiser of its tournament and leads to its organiser desk;
declining removes it. An invitation not theirs, or none, is a 404. Each answer
runs one service (``services.co_organisers``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.errors import UserError
from tournaments.models import CoOrganiserInvitation
from tournaments.selectors.tournaments import invitation_pending, invitations_pending
from tournaments.services.co_organisers import (
    co_organiser_invitation_accept,
    co_organiser_invitation_decline,
)
from tournaments.web.pages import LOGIN_URL


def _pending(request: HttpRequest, invitation_id: int) -> CoOrganiserInvitation:
    found = invitation_pending(user=request.user, pk=invitation_id)
    if found is None:
        raise Http404
    return found


def _back() -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("web:invitations"))


@login_required(login_url=LOGIN_URL)
def invitations(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/invitations.html",
        {"invitations": list(invitations_pending(user=request.user))},
    )


@login_required(login_url=LOGIN_URL)
@require_POST
def invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _pending(request, invitation_id)
    try:
        tournament = co_organiser_invitation_accept(invitation=invitation, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
        return _back()
    messages.success(
        request,
        gettext("You co-organise “%(name)s” now.") % {"name": tournament.name},
    )
    return HttpResponseRedirect(reverse("web:organise", kwargs={"slug": tournament.slug}))


@login_required(login_url=LOGIN_URL)
@require_POST
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _pending(request, invitation_id)
    try:
        co_organiser_invitation_decline(invitation=invitation, user=request.user)
    except UserError as error:
        messages.error(request, error.render(gettext))
    else:
        messages.success(
            request,
            gettext("Invitation to co-organise “%(name)s” declined.")
            % {"name": invitation.tournament.name},
        )
    return _back()

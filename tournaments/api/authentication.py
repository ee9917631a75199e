"""The match token: the private credential printed (as a QR code) on a score sheet.

Vocabulary: a *match token* is the unguessable ``Match.token``; sent in the
``X-Match-Token`` header it is a *match grant*: whoever holds it may read and
record the games of that one match and nothing else. It identifies no user
(``request.user`` stays anonymous); the grant is ``request.auth``.

Only the views of a match and its games list this authentication; everywhere
else the header is ignored, so a token opens nothing there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from tournaments.models import Match, match_token_plausible

MATCH_TOKEN_HEADER = "X-Match-Token"


@dataclass(frozen=True)
class MatchGrant:
    """What a valid match token allows: the games of this one match."""

    match_id: int


def match_grant(request: Request) -> MatchGrant | None:
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, MatchGrant) else None


class KeyTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, turning away keys that cannot be
    keys (PostgreSQL refuses a NUL byte in a query with an error, not a miss)."""

    def authenticate_credentials(self, key: str) -> Any:
        if not (key.isascii() and key.isalnum() and len(key) <= 40):
            raise AuthenticationFailed(_("Invalid token."))
        return super().authenticate_credentials(key)


class MatchTokenAuthentication(BaseAuthentication):
    """``X-Match-Token: <token>``: the match's private entry link, as a header."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, MatchGrant] | None:
        token = request.headers.get(MATCH_TOKEN_HEADER)
        if token is None:
            return None
        token = token.strip()
        match_id = (
            Match.objects.filter(token=token).values_list("pk", flat=True).first()
            if match_token_plausible(token)
            else None
        )
        if match_id is None:
            raise AuthenticationFailed(_("No match has this token."))
        return AnonymousUser(), MatchGrant(match_id=match_id)

    def authenticate_header(self, request: Request) -> str:
        return MATCH_TOKEN_HEADER


class MatchTokenScheme(OpenApiAuthenticationExtension):
    target_class = MatchTokenAuthentication
    name = "matchToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": MATCH_TOKEN_HEADER,
            "description": (
                "A match's private token (printed as a QR code on its score sheet). It allows "
                "reading that match and recording and reading its games, nothing else."
            ),
        }

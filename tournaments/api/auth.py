"""Credentials: the API token login, and the match token.

Vocabulary: a *match token* is the unguessable ``Match.token``, the private
credential printed (as a QR code) on a score sheet; sent in the
``X-Match-Token`` header it is a *match grant*: whoever holds it may read and
record the games of that one match and nothing else. It identifies no user
(``request.user`` stays anonymous); the grant is ``request.auth``.

Only the views of a match and its games list this authentication
(``MATCH_AUTHENTICATION``); everywhere else the header is ignored, so a token
opens nothing there. Users log in with ``POST /api/v1/auth/token/`` and send
``Authorization: Token <key>`` (``apikit.defaults.KeyTokenAuthentication``).

Every login is guarded against password guessing (``config.login_guard``):
after 5 wrong passwords for one username from one address the token login
answers 429 with ``Retry-After`` for 15 minutes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.signals import user_logged_in
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import BaseAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from apikit.errors import DetailErrorSerializer, error_responses
from apikit.serializer_fields import StrictCharField
from tournaments.models import Match, match_token_plausible
from tournaments.selectors.matches import match_by_token

MATCH_TOKEN_HEADER = "X-Match-Token"

# ----------------------------------------------------------------------------- match token


@dataclass(frozen=True)
class MatchGrant:
    """What a valid match token allows: the games of this one match (``match``:
    as read when the token was checked, with its round and tournament)."""

    match_id: int
    match: Match | None = field(default=None, compare=False, repr=False)


def match_grant(request: Request) -> MatchGrant | None:
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, MatchGrant) else None


class MatchTokenAuthentication(BaseAuthentication):
    """``X-Match-Token: <token>``: the match's private entry link, as a header."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, MatchGrant] | None:
        token = request.headers.get(MATCH_TOKEN_HEADER)
        if token is None:
            return None
        token = token.strip()
        # The match with its round and tournament: the views it opens need them next.
        match = match_by_token(token) if match_token_plausible(token) else None
        if match is None:
            raise AuthenticationFailed(_("No match has this token."))
        return AnonymousUser(), MatchGrant(match_id=match.pk, match=match)

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


# Credentials of a match's own views: a user's, or the match token (last: a user wins).
MATCH_AUTHENTICATION: list[type[BaseAuthentication]] = [
    *cast(list[type[BaseAuthentication]], api_settings.DEFAULT_AUTHENTICATION_CLASSES),
    MatchTokenAuthentication,
]

# ----------------------------------------------------------------------------- token login


class TokenLoginSerializer(AuthTokenSerializer):
    """DRF's token login, taking only strings (a number is no username)."""

    username = StrictCharField(label=_("Username"), write_only=True)
    password = StrictCharField(
        label=_("Password"),
        style={"input_type": "password"},
        trim_whitespace=False,
        write_only=True,
    )


class TokenResponseSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text=_("Send it as `Authorization: Token <token>`."))


LOCKED_OUT_RESPONSE = OpenApiResponse(
    response=DetailErrorSerializer,
    description=(
        "Too many failed logins: after 5 wrong passwords for one username from one address "
        "within 15 minutes, that username is refused from there (even with the right "
        "password) until `Retry-After` seconds have passed."
    ),
)
RETRY_AFTER_HEADER = OpenApiParameter(
    name="Retry-After",
    type=OpenApiTypes.INT,
    location=OpenApiParameter.HEADER,
    description="Seconds until this username may log in again from this address.",
    response=[429],
)


class TokenObtainView(ObtainAuthToken):
    """Exchange a username and password for an API token."""

    authentication_classes: list[Any] = []  # a login form: no session, so no CSRF check
    serializer_class = TokenLoginSerializer
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]
    # Django's request, as dispatch received it (DRF wraps it).
    django_request: HttpRequest | None = None

    def initialize_request(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Request:
        self.django_request = request
        return super().initialize_request(request, *args, **kwargs)

    def get_serializer_context(self) -> dict[str, Any]:
        # authenticate() must see Django's request, not DRF's wrapper: the login
        # guard marks a locked-out request on it, and its middleware reads the
        # mark from the request it handled (a mark on the wrapper is lost).
        return {**super().get_serializer_context(), "request": self.django_request}

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get an API token",
        tags=["auth"],
        request=TokenLoginSerializer,
        parameters=[RETRY_AFTER_HEADER],
        responses={200: TokenResponseSerializer, **error_responses(400), 429: LOCKED_OUT_RESPONSE},
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        # A login like the site's: clears the login guard's count of failures
        # for this username and address, and stamps last_login.
        user_logged_in.send(sender=type(user), request=self.django_request, user=user)
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})

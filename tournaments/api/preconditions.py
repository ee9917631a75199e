"""ETags and ``If-Match`` for recorded games.

Vocabulary: a game's *version* (``Game.version``) is bumped by every
correction; its *ETag* is the version in quotes (``"3"``). A correction or a
deletion must send ``If-Match`` with the ETag it read: none at all answers
428, another version 412 (the service compares under a row lock, so two
organisers correcting at once cannot both win).

``If-Match`` takes *strong* tags only: ``"3"`` (and, leniently, a bare
``3``) names version 3; a list names several; ``*`` matches whatever version
is current. A *weak* tag (``W/"3"``) never matches (RFC 9110, 13.1.1: If-Match
compares strongly), so a header of weak tags alone answers 412.

A *live* read (the standings) answers an ``ETag`` of the tournament's version
instead (``tournaments.live``): sent back in ``If-None-Match``, it gets a 304
with no body while nothing the answer shows has changed.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.request import Request

from scoring.errors import PreconditionFailedError, PreconditionRequiredError, _
from tournaments.models import Game

# A strong tag only: a weak one (W/"3") is no match for If-Match.
_VERSION_TAG = re.compile(r'^("?)([0-9]{1,9})\1$')
_HEADER_SHOWN_MAX = 40

ETAG_HEADER = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 201],
    description=gettext_lazy('The game\'s version, quoted (`"3"`); send it back in `If-Match`.'),
)
IF_MATCH_HEADER = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description=gettext_lazy(
        'The `ETag` of the game as read (`"3"`; a bare `3` is accepted too). '
        'Missing: 428. Not the current version, or a weak tag (`W/"3"`): 412.'
    ),
)


LIVE_ETAG_HEADER = OpenApiParameter(
    "ETag",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200, 304],
    description=gettext_lazy(
        "The answer's version: it changes with every change to the tournament. Send it "
        "back in `If-None-Match` to ask again."
    ),
)
IF_NONE_MATCH_HEADER = OpenApiParameter(
    "If-None-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description=gettext_lazy(
        "The `ETag` of the answer already held: when nothing has changed, the answer is "
        "304 with no body."
    ),
)
NOT_MODIFIED = OpenApiResponse(
    description=gettext_lazy("Nothing has changed since the answer whose `ETag` was sent.")
)


def etag_of(game: Game) -> str:
    return f'"{game.version}"'


def if_match_version(request: Request, game: Game) -> int | None:
    """The version ``If-Match`` names for ``game``; None for ``*`` (any version).

    Raises 428 when the header is missing and 412 when it names no version
    this game could have.
    """
    header = request.headers.get("If-Match")
    if header is None or not header.strip():
        raise PreconditionRequiredError(
            _(
                "Send the game's ETag in an If-Match header (now %(etag)s) so that a change "
                "made meanwhile is not overwritten."
            ),
            etag=etag_of(game),
        )
    tags = [tag.strip() for tag in header.split(",") if tag.strip()]
    if "*" in tags:
        return None
    versions = [int(found.group(2)) for tag in tags if (found := _VERSION_TAG.match(tag))]
    if not versions:
        raise PreconditionFailedError(
            _("If-Match “%(header)s” is not an ETag of game %(number)s (now %(etag)s)."),
            header=header[:_HEADER_SHOWN_MAX],
            number=game.number,
            etag=etag_of(game),
        )
    # Any listed version that is current matches; otherwise the service says which is.
    return game.version if game.version in versions else versions[0]

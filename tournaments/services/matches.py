"""Match links: replacing a match's private token.

Vocabulary: a match's *link* is ``/m/<token>/`` (its score sheet's QR code);
*regenerating* it gives the match a new token, so the old link and sheet stop
working at once and the match's score sheet needs printing again. The trail
keeps only the tokens' last four characters (enough to tell links apart, too
little to use one) and the old token's *digest* (its sha256), so that the old
link can still say it was replaced (``selectors.match_replaced``).
"""

from __future__ import annotations

from django.db import transaction

from tournaments.actors import ActingUser
from tournaments.models import AuditEvent, Match, match_token_digest, match_token_new
from tournaments.services.audit import audit_add
from tournaments.services.tournament_open import tournament_open_check


def _tail(token: str) -> str:
    return f"…{token[-4:]}"


@transaction.atomic
def match_token_regenerate(*, match: Match, user: ActingUser) -> Match:
    """Give the match a new private token; the old one stops working."""
    tournament_open_check(match.round.tournament)
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=match.pk)
    )
    old = match.token
    match.token = match_token_new()
    match.save(update_fields=["token"])
    audit_add(
        tournament=match.round.tournament,
        action=AuditEvent.Action.TOKEN_REGENERATED,
        user=user,
        match=match,
        object_id=match.pk,
        old={"token": _tail(old), "digest": match_token_digest(old)},
        new={"token": _tail(match.token)},
    )
    return match

"""Tournament services: creating a tournament, changing its settings, deleting it.

Vocabulary: a tournament's *settings* are its model fields other than its id,
its owner and its creation time: its name and address (*slug*), its plan and
its *rule settings* (joker penalty, pool tie, table points, tie-breaks). The
rule settings are judged by the rules engine and the standings, so a refusal
carries their message. ``table_points`` is ``{"2": [4, 0], "3": [...], "4":
[...]}``; sizes left out keep their current points. A setting that is not a
model field is a programming error (``TypeError``), not a user's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.utils.text import slugify

from scoring import rules
from scoring.errors import UserError, _

from ..access import UserLike
from ..fields import table_points_rules
from ..models import Tournament
from ..standings.ranking import tie_breaks_check
from ._clean import model_checked

SETTINGS = frozenset(
    f.name
    for f in Tournament._meta.concrete_fields
    if f.editable and f.name not in ("id", "owner", "created")
)
SLUG_MAX = 80
# Rendered by the model as constraint names, so said here in words.
_BOUNDS = {
    "max_table_size": (
        2,
        4,
        _("A table seats 2 to 4 players; the largest table cannot seat %(value)s."),
    ),
    "games_per_round": (
        1,
        30,
        _("A round has 1 to 30 games per table; %(value)s is out of range."),
    ),
    "rounds": (0, 100, _("A tournament plans 0 to 100 rounds; %(value)s is out of range.")),
}


def slug_free(name: str) -> str:
    """A slug made from the name that no tournament uses yet."""
    base = (slugify(name) or "tournament")[:70]
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, suffix = base, 1
    while slug in taken:
        suffix += 1
        slug = f"{base}-{suffix}"
    return slug


def _slug_check(tournament: Tournament) -> None:
    slug = tournament.slug
    if len(slug) > SLUG_MAX:
        raise UserError(
            _("The slug can be at most %(max)s characters long."), field="slug", max=SLUG_MAX
        )
    try:
        validate_slug(slug)
    except ValidationError as error:
        raise UserError(
            _("The slug “%(slug)s” is not valid: use letters, numbers, hyphens and underscores."),
            field="slug",
            slug=slug,
        ) from error
    if Tournament.objects.filter(slug=slug).exclude(pk=tournament.pk).exists():
        raise UserError(
            _("The slug “%(slug)s” is taken by another tournament."), field="slug", slug=slug
        )


def _table_points_merged(current: Any, given: Any) -> dict[str, list[int]]:
    merged = {**current, **given} if isinstance(given, Mapping) else given
    vectors = table_points_rules(merged)
    return {str(size): list(points) for size, points in sorted(vectors.items())}


def _settings_apply(tournament: Tournament, settings: dict[str, Any]) -> list[str]:
    """Judge the settings and set them on the (unsaved) tournament; the fields changed."""
    unknown = sorted(set(settings) - SETTINGS - {"owner"})
    if unknown:
        raise TypeError(f"Not a tournament setting: {', '.join(unknown)}")
    settings = dict(settings)
    if isinstance(settings.get("name"), str):
        settings["name"] = settings["name"].strip()
        if not settings["name"]:
            raise UserError(_("Give the tournament a name."), field="name")
    # The engine judges the rule settings together, with its own messages.
    rules.Rules(
        joker_penalty=settings.get("joker_penalty", tournament.joker_penalty),
        pool_tie=settings.get("pool_tie", tournament.pool_tie),
    )
    if "table_points" in settings:
        settings["table_points"] = _table_points_merged(
            tournament.table_points, settings["table_points"]
        )
    if "tie_breaks" in settings:
        settings["tie_breaks"] = tie_breaks_check(names=settings["tie_breaks"])
    for name, value in settings.items():
        setattr(tournament, name, value)
    if not tournament.slug:
        tournament.slug = slug_free(tournament.name)
        settings["slug"] = tournament.slug
    _slug_check(tournament)
    for name, (low, high, message) in _BOUNDS.items():
        value = getattr(tournament, name)
        if isinstance(value, int) and not low <= value <= high:
            raise UserError(message, field=name, value=value)
    model_checked(tournament)
    return list(settings)


@transaction.atomic
def tournament_create(*, owner: Any, **settings: Any) -> Tournament:
    """A new tournament owned by ``owner``; settings left out take their defaults,
    and the slug is made from the name when none is given."""
    tournament = Tournament(owner=owner)
    _settings_apply(tournament, settings)
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, user: UserLike = None, **changes: Any
) -> Tournament:
    """Change some settings of a tournament; the others stay as they are.

    ``user`` is who makes the change (the caller has checked that they may).
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    changed = _settings_apply(tournament, changes)
    if changed:
        tournament.save(update_fields=changed)
    return tournament


@transaction.atomic
def tournament_delete(*, tournament: Tournament) -> None:
    """Delete a tournament with everything in it: entries, rounds, games, adjustments.

    Its players and its club stay.
    """
    tournament.delete()

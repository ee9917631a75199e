"""A club's address (``/c/<slug>/``): made from its name, unique among clubs."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from tournaments.models import Club
from tournaments.slugs import name_slug

# Addresses under /c/ that are pages, not clubs: never a club's.
SLUGS_RESERVED = frozenset({"new"})


def club_slug_base(name: str) -> str:
    """The slug a club of that name starts from."""
    return name_slug(name, "club")


def club_slugs_free(names: Iterable[str]) -> list[str]:
    """A free slug for each name, in order, distinct from each other, in one query."""
    names = list(names)
    bases = [club_slug_base(name) for name in names]
    if not bases:
        return []
    taken_q = Q()
    for base in set(bases):
        taken_q |= Q(slug__startswith=base)
    taken = set(Club.objects.filter(taken_q).values_list("slug", flat=True)) | SLUGS_RESERVED
    slugs = []
    for base in bases:
        slug, suffix = base, 1
        while slug in taken:
            suffix += 1
            slug = f"{base}-{suffix}"
        taken.add(slug)
        slugs.append(slug)
    return slugs

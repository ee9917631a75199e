"""The address a name gives: a club's ``/c/<slug>/``, a tournament's
``/t/<slug>/`` and the names of the files they print.

Vocabulary: a name's *slug* is its plain letters (``search_names.name_plain``:
accents dropped, "ø" "o", "æ" "ae", "ß" "ss", so "Nørrebro" is "norrebro",
"Århus" "arhus" and "Straße" "strasse"), then Django's ``slugify``. One rule
for every language: a letter with an accent is written without it ("å" is
"a", "ö" "o", "ü" "u"), never respelt, as the name search meets "Århus" and
"Aarhus" alike. Slugs already stored stay as they were made.
"""

from __future__ import annotations

from django.utils.text import slugify

from tournaments.search_names import name_plain

SLUG_BASE_MAX = 70


def name_slug(name: str, fallback: str = "") -> str:
    """The slug ``name`` gives, at most ``SLUG_BASE_MAX`` characters; ``fallback``
    when nothing of it is left."""
    return (slugify(name_plain(name)) or fallback)[:SLUG_BASE_MAX]

"""Pure: names compared as people type them, whatever their accents.

Vocabulary: a name's *fold* is the form searches compare: lower case,
accents dropped ("é" is "e"), then the letters of ``FOLDS`` replaced in
order, so that the Nordic and German letters and their spellings without
them meet: "ø", "ö", "oe" and "o" fold alike, as do "å", "ä", "aa", "ae",
"æ" and "a", "ü", "ue" and "u", "ß" and "ss". "Bjorn" and "Bjoern" find
"Bjørn", "Ase" and "Aase" find "Åse", "ostergaard" finds "Østergaard".
A fold folds to itself. The fold is for matching only, never shown or stored. A query *matches* a
name when each of its words' folds is found in the name's fold, in any
order ("eriksen lars" matches "Lars Eriksen"). The pages' JavaScript folds
with the same table (``FOLDS``, handed over in each page's config), so a
search narrowed in the browser agrees with the server's.

A name's *plain letters* are the first half of its fold alone: lower case,
accents dropped, the letters of ``LETTERS`` replaced ("Nørrebro" is
"norrebro", "Århus" "arhus", "Straße" "strasse", "Ærø" "aero"), the
spellings left as typed ("Aarhus" stays "aarhus", "Michael" "michael"). They
are what an address made from a name is written in (``tournaments.slugs``).
"""

from __future__ import annotations

import unicodedata

# The letters Unicode does not split into a letter and an accent, each as it
# is written without it; applied in order, after lower case and the accents'
# removal.
LETTERS: tuple[tuple[str, str], ...] = (
    ("ø", "o"),
    ("æ", "ae"),
    ("œ", "oe"),
    ("ß", "ss"),
    ("đ", "d"),
    ("ð", "d"),
    ("ł", "l"),
    ("þ", "th"),
    ("ı", "i"),
)
# Then the spellings of those letters without them, met with the plain vowel.
SPELLINGS: tuple[tuple[str, str], ...] = (
    ("aa", "a"),
    ("ae", "a"),
    ("oe", "o"),
    ("ue", "u"),
)
# Applied in order: the letters first, then the spellings.
FOLDS: tuple[tuple[str, str], ...] = LETTERS + SPELLINGS


def name_plain(text: str) -> str:
    """``text`` in plain letters: lower case, no accents, ``LETTERS`` applied;
    spellings and spaces as given."""
    split = unicodedata.normalize("NFD", text.lower())
    plain = "".join(c for c in split if not unicodedata.category(c).startswith("M"))
    for letters, written in LETTERS:
        plain = plain.replace(letters, written)
    return plain


def name_fold(text: str) -> str:
    """``text`` as searches compare it: lower case, no accents, ``FOLDS`` applied,
    spaces collapsed."""
    folded = name_plain(text)
    # Until nothing changes, so that a fold folds to itself ("æe" is "aee", then "a").
    before = None
    while before != folded:
        before = folded
        for letters, plain in FOLDS:
            folded = folded.replace(letters, plain)
    return " ".join(folded.split())


def name_keys(name: str) -> frozenset[str]:
    """The folds a name is found by: the whole name's and each word's."""
    whole = name_fold(name)
    return frozenset([whole, *whole.split()]) - {""}


def name_matches(query: str, name: str) -> bool:
    """Whether each word of ``query`` is found, folded, in ``name`` (any order);
    an empty query matches every name."""
    folded = name_fold(name)
    return all(word in folded for word in name_fold(query).split())

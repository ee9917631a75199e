"""Pure: a person's name as it is stored.

Vocabulary: a *clean* name is the text as typed or read from a file with its
spaces collapsed (any run of white space, tabs and non-breaking spaces
included, is one space; none at either end) and its letters in Unicode's
composed form (NFC), so that "Lars   Eriksen" is "Lars Eriksen" and an "ø"
typed as "o" with a combining stroke is the one "ø". Every path that stores a
player's name (the desk, the API, the admin, a players file, a restored
backup) stores it clean, so two names that look alike are equal.
"""

from __future__ import annotations

import unicodedata


def name_clean(text: str) -> str:
    """``text`` with its white space collapsed and stripped, in NFC."""
    return " ".join(unicodedata.normalize("NFC", text).split())

"""Game numbers: which game of a match is recorded next.

Vocabulary: a match plays games 1 to its round's *planned* number; a number
already recorded is *taken*; the *free* numbers are the others, lowest first,
and the *next* game is the lowest free one (a deleted game leaves a gap, which
the next result fills). None is next once every planned game is recorded.

Plain Python, the rule's one home: the recording service, the table's page
and the desk ask here, and the table's page hands the free numbers to its
offline queue (``offline_config``), which offers the first one not waiting
in the browser.
"""

from __future__ import annotations

from collections.abc import Iterable


def game_numbers_free(*, taken: Iterable[int], planned: int) -> list[int]:
    """The numbers from 1 to ``planned`` not ``taken``, lowest first."""
    recorded = set(taken)
    return [n for n in range(1, planned + 1) if n not in recorded]


def game_number_next(*, taken: Iterable[int], planned: int) -> int | None:
    """The lowest free number, or None when all ``planned`` games are taken."""
    free = game_numbers_free(taken=taken, planned=planned)
    return free[0] if free else None

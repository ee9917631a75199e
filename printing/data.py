"""The plain data printed: sheets, and the lines of the standings and the final report.

Vocabulary: a :class:`Sheet` is one page's words (a blank pad sheet has no
tournament, round, table or url); a :class:`SheetSet` is the sheets printed
as one PDF, in one language and on one paper size. The *lines* are the rows
of the standings and the final report, already in words and numbers, each
number as text in the document's language ("3,50" in Danish): the layout
only places them.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import NotRequired, TypedDict


class SheetPlayer(TypedDict):
    seat: int
    name: str
    club: str


class Sheet(TypedDict):
    """One sheet's words. Blank pad sheets have no tournament, round, table or url."""

    tournament: str
    round: int | None
    stage: str
    table: int | None
    date: datetime.date | None
    players: list[SheetPlayer]
    games: int
    joker_penalty: int
    # The event's variants, stated in the scoring reminder (left out: none).
    loss_cap: NotRequired[int | None]
    winner_bonus: NotRequired[int]
    runner_up_bonus: NotRequired[int]
    url: str
    paper: str


class SheetSet(TypedDict):
    language: str
    paper: str
    title: str
    sheets: list[Sheet]


@dataclass(frozen=True)
class StandingsLine:
    """A standings row for print: its numbers as one run of monospaced, right-aligned
    columns (one text box instead of six: a table cell costs WeasyPrint ~0.8 ms).
    ``lead`` is the first column, the ranking's, printed bold before the rest;
    ``stage``, when given, names the stage that decided the place (the report's
    final table: "Final", "Semi-finals", "Qualifying")."""

    rank: int
    name: str
    club: str
    withdrawn: bool
    numbers: str
    lead: str = ""
    stage: str = ""


@dataclass(frozen=True)
class MatchResult:
    table: int
    games: int
    players: list[tuple[str, str, int]]  # name, match score as printed, games won, in seat order


@dataclass(frozen=True)
class RoundResults:
    number: int
    stage: str
    date: datetime.date | None
    matches: list[MatchResult]


@dataclass(frozen=True)
class AdjustmentLine:
    player: str
    round: int | None
    kind: str
    points: str  # as printed
    reason: str

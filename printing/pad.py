"""The blank club score pad: what a casual table prints to keep score by hand.

Vocabulary: a *pad sheet* is one blank score sheet for ``players`` (2–4)
seats and ``games`` (1–30) game rows, in a ``language`` and on a ``paper``
size, optionally with the players' names already written in seat order and
the joker value the club plays with. :func:`pad_parse` turns the query
string of ``/scoresheet.pdf`` into a :class:`PadSheet` or refuses it with a
:class:`~scoring.errors.UserError`; :func:`pad_pdf` prints it, a sheet
without tournament, round, table or entry link. Nothing here knows about
tournaments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from printing.data import Sheet, SheetSet
from printing.layout import PAPER_MM
from printing.sheet_sets import sheets_pdf
from scoring.errors import UserError, _

PLAYERS_MIN, PLAYERS_MAX = 2, 4
GAMES_MIN, GAMES_MAX = 1, 30
GAMES_DEFAULT = 4
JOKER_DEFAULT = 30
JOKER_MAX = 100
NAME_MAX = 40
PAPERS = tuple(PAPER_MM)  # "A4", "Letter"


@dataclass(frozen=True)
class PadSheet:
    players: int
    games: int
    names: tuple[str, ...]  # one per seat, "" where the name is left to write in
    language: str
    paper: str = "A4"
    joker_penalty: int = JOKER_DEFAULT


# The message for a number out of range, per parameter.
RANGE_MESSAGES = {
    "players": _("The number of players must be a whole number from %(low)s to %(high)s."),
    "games": _("The number of games must be a whole number from %(low)s to %(high)s."),
    "joker": _("The joker's value must be a whole number from %(low)s to %(high)s."),
}


def _int_in(value: str | None, *, field: str, low: int, high: int, default: int) -> int:
    if value is None or not value.strip():
        return default
    try:
        number = int(value.strip())
    except ValueError:
        number = low - 1  # not a number: refused with the same message as out of range
    if not low <= number <= high:
        raise UserError(RANGE_MESSAGES[field], field=field, low=low, high=high)
    return number


def pad_parse(
    *,
    players: str | None,
    games: str | None,
    names: Sequence[str] = (),
    language: str | None,
    languages: Sequence[str],
    default_language: str,
    paper: str | None = None,
    joker: str | None = None,
) -> PadSheet:
    """Validate the pad's parameters (all optional) and fill in the defaults.

    ``names`` are given one per seat (repeated ``name``) or comma-separated;
    ``players`` defaults to the number of names given, or 4.
    """
    split = [part.strip() for name in names for part in name.split(",")]
    while split and not split[-1]:
        split.pop()
    if any(len(n) > NAME_MAX for n in split):
        raise UserError(
            _("A name can be at most %(max)s characters long."), field="names", max=NAME_MAX
        )
    default_players = min(max(len(split), PLAYERS_MIN), PLAYERS_MAX) if split else PLAYERS_MAX
    count = _int_in(
        players, field="players", low=PLAYERS_MIN, high=PLAYERS_MAX, default=default_players
    )
    if len(split) > count:
        raise UserError(
            _("%(given)s names were given for %(count)s players."),
            field="names",
            given=len(split),
            count=count,
        )
    rows = _int_in(games, field="games", low=GAMES_MIN, high=GAMES_MAX, default=GAMES_DEFAULT)
    joker_penalty = _int_in(joker, field="joker", low=0, high=JOKER_MAX, default=JOKER_DEFAULT)
    lang = (language or "").strip() or default_language
    if lang not in languages:
        raise UserError(
            _("Unknown language %(language)s; choose one of %(choices)s."),
            field="lang",
            language=lang[:12],
            choices=", ".join(languages),
        )
    size = (paper or "").strip() or "A4"
    matched = next((p for p in PAPERS if p.lower() == size.lower()), None)
    if matched is None:
        raise UserError(_("Paper must be A4 or Letter."), field="paper")
    return PadSheet(
        players=count,
        games=rows,
        names=tuple(split) + ("",) * (count - len(split)),
        language=lang,
        paper=matched,
        joker_penalty=joker_penalty,
    )


def pad_data(*, pad: PadSheet) -> SheetSet:
    """The pad as a sheet set of one sheet."""
    sheet: Sheet = {
        "tournament": "",
        "round": None,
        "stage": "",
        "table": None,
        "date": None,
        "players": [
            {"seat": seat, "name": name, "club": ""} for seat, name in enumerate(pad.names, start=1)
        ],
        "games": pad.games,
        "joker_penalty": pad.joker_penalty,
        "url": "",
        "paper": pad.paper,
    }
    return {"language": pad.language, "paper": pad.paper, "title": "Rummikub", "sheets": [sheet]}


def pad_pdf(*, pad: PadSheet) -> bytes:
    """A blank club score sheet."""
    return sheets_pdf(sheet_set=pad_data(pad=pad))

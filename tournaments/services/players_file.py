"""Players files: checking a ``name,club`` CSV and importing it.

Vocabulary: a *players file* is a ``name,club`` CSV (a header row naming the
columns is optional, in any of the pages' languages: ``HEADERS``; the
separator may be a comma, a semicolon or a tab, read off the first line that
has one; UTF-8 with or without a BOM, else Windows-1252; clubs are matched
without regard to case; a header may name a third column, ``category``, whose
text becomes each entry's category when a tournament is imported into). Each
cell is read clean (``names.name_clean``: spaces collapsed, NFC; a name also
loses the commas and semicolons typed after it). A *problem*
is one thing wrong with it (its line number, a message template and its
parameters); *previewing* a file checks it and says what each line will do,
storing nothing; *importing* it creates its clubs and players and, for a
tournament, enters them all: all or nothing.

A line *matches* an existing player the importing user may see
(``access.players_visible_q``: never another organiser's private player; a
file is data, not an identity) of the same name in any case: with a club, the
first made of that club; without one, the one player of that name whatever
their club (or, among several, the one without a club). A line with a club
that no player of that name is in may also match one of the *adoptable*
players of no club (a query the caller gives: a club's import offers the
organiser's own players), the first made. A matched line is that player, not a
new one, unless the organiser marks the line *new*.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from scoring import rules
from scoring.errors import UserError, _
from tournaments.access import players_visible_q, user_or_none
from tournaments.actors import ActingUser
from tournaments.models import Club, Entry, Player, Tournament
from tournaments.names import name_clean
from tournaments.selectors.people import clubs_usable
from tournaments.services.club_slugs import club_slugs_free
from tournaments.services.entries import entries_add, entries_category_set

NAME_MAX = Player._meta.get_field("name").max_length or 120
CLUB_MAX = Club._meta.get_field("name").max_length or 120


Problem = tuple[int, str, dict[str, Any]]  # line number, message template, its parameters


def problem_text(
    template: str, params: dict[str, Any], translate: Callable[[str], str] = lambda s: s
) -> str:
    return translate(template) % params if params else translate(template)


class PlayersFileError(UserError):
    """A players file with errors: ``problems`` holds one message per bad line."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=lambda p: p[0])
        super().__init__(
            _("Nothing imported; problems in the file: %(count)s."),
            field="file",
            count=len(problems),
        )

    def lines(self, translate: Callable[[str], str] = lambda s: s) -> list[str]:
        """Each problem as ``line N: message``."""
        shown = []
        for number, template, params in self.problems:
            text = problem_text(template, params, translate)
            shown.append(
                translate(_("line %(line)s: %(problem)s")) % {"line": number, "problem": text}
                if number
                else text
            )
        return shown


@dataclass
class ImportResult:
    created: list[Player] = field(default_factory=list)
    existing: list[Player] = field(default_factory=list)
    entered: int = 0


@dataclass(frozen=True)
class _Line:
    number: int
    name: str
    club: str
    category: str = ""


COLUMNS = ("name", "club", "category")
# A header's words in each of the pages' languages (its help shows the page's);
# a file's header may use any of them, or another word of ``HEADER_WORDS``.
HEADERS: dict[str, tuple[str, str, str]] = {
    "en": ("name", "club", "category"),
    "da": ("navn", "klub", "kategori"),
    "de": ("name", "verein", "kategorie"),
    "nb": ("navn", "klubb", "kategori"),
    "nl": ("naam", "club", "categorie"),
    "sv": ("namn", "klubb", "kategori"),
}
HEADER_WORDS: dict[str, str] = {
    **{
        word: column
        for words in HEADERS.values()
        for word, column in zip(words, COLUMNS, strict=True)
    },
    **dict.fromkeys(("player", "spiller", "spieler", "speler", "spelare"), "name"),
    **dict.fromkeys(("forening", "förening", "vereniging"), "club"),
    **dict.fromkeys(("klasse", "klass"), "category"),
}
# Tried in this order on the first line that has any: a semicolon file's names
# may hold commas ("Eriksen, Lars"), a comma file's hardly a semicolon.
DELIMITERS = ("\t", ";", ",")
ENCODINGS = ("utf-8-sig", "cp1252")


def header_shown(language: str | None) -> str:
    """The header row in a page's language (``navn,klub,kategori``); English for others."""
    words = HEADERS.get((language or "en").split("-")[0].casefold(), HEADERS["en"])
    return ",".join(words)


def players_file_decoded(raw: bytes) -> tuple[str, bool]:
    """A players file's bytes as text, and whether it was read as Windows-1252
    (older spreadsheets' CSV) because it is not UTF-8. Raises ``UserError`` for
    bytes that are neither."""
    for encoding in ENCODINGS:
        try:
            return raw.decode(encoding), encoding != ENCODINGS[0]
        except UnicodeDecodeError:
            continue
    raise UserError(_("The file is not text: save it as CSV."), field="file")


def delimiter_of(text: str) -> str:
    """The separator: the first of ``DELIMITERS`` on the first line that has one.
    (csv.Sniffer guesses wrong on short files.)"""
    for line in text.splitlines():
        present = [d for d in DELIMITERS if d in line]
        if present:
            return present[0]
    return ","


def header_columns(cells: list[str]) -> dict[str, int] | None:
    """The columns a first line names (None when it names no name column)."""
    columns: dict[str, int] = {}
    for i, cell in enumerate(cells):
        column = HEADER_WORDS.get(cell.casefold().rstrip(":"))
        if column is not None:
            columns.setdefault(column, i)
    return columns if "name" in columns else None


def name_cell(text: str) -> str:
    """A name cell read clean, without the separators a list typed by hand
    leaves after it ("Mette Sørensen," in a semicolon file)."""
    return name_clean(name_clean(text).rstrip(",;"))


def _csv_lines(text: str) -> tuple[list[_Line], list[Problem]]:
    """Parse a players CSV (``name,club``; a header row naming the columns is optional)."""
    problems: list[Problem] = []
    text = text.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter_of(text))
    columns = {"name": 0, "club": 1}
    lines: list[_Line] = []
    first = True
    for raw in reader:
        number = reader.line_num
        cells = [name_clean(c) for c in raw]
        if not any(cells):
            continue
        if first:
            first = False
            header = header_columns(cells)
            if header is not None:
                unknown = [c for i, c in enumerate(cells) if c and i not in header.values()]
                if unknown:
                    problems.append(
                        (
                            number,
                            _("unknown column %(columns)s; the columns are name, club, category"),
                            {"columns": ", ".join(repr(u) for u in unknown)},
                        )
                    )
                columns = header
                continue
        width = max(columns.values()) + 1
        if any(cells[width:]):
            problems.append(
                (
                    number,
                    _("%(count)s columns, expected at most %(width)s (name, club)"),
                    {"count": len(cells), "width": width},
                )
            )
        name = name_cell(cells[columns["name"]]) if len(cells) > columns["name"] else ""
        club = cells[columns["club"]] if "club" in columns and len(cells) > columns["club"] else ""
        where = columns.get("category")
        category = cells[where] if where is not None and len(cells) > where else ""
        lines.append(_Line(number, name, club, category))
    return lines, problems


def _lines_checked(text: str) -> tuple[list[_Line], list[Problem]]:
    """The file's lines and every problem found in them (the same for preview and import)."""
    lines, problems = _csv_lines(text)
    seen: dict[tuple[str, str], int] = {}
    for line in lines:
        if not line.name:
            problems.append((line.number, _("the name is missing"), {}))
        elif len(line.name) > NAME_MAX:
            problems.append(
                (line.number, _("the name is longer than %(max)s characters"), {"max": NAME_MAX})
            )
        if len(line.club) > CLUB_MAX:
            problems.append(
                (line.number, _("the club is longer than %(max)s characters"), {"max": CLUB_MAX})
            )
        if len(line.category) > rules.CATEGORY_MAX_LENGTH:
            problems.append(
                (
                    line.number,
                    _("the category is longer than %(max)s characters"),
                    {"max": rules.CATEGORY_MAX_LENGTH},
                )
            )
        key = (line.name.casefold(), line.club.casefold())
        if line.name and key in seen:
            problems.append(
                (
                    line.number,
                    _("%(name)s (%(club)s) is already on line %(first)s"),
                    {"name": line.name, "club": line.club or "-", "first": seen[key]},
                )
            )
        seen.setdefault(key, line.number)
    if not lines and not problems:
        problems.append((0, _("The file lists no players."), {}))
    return lines, problems


def _clubs_known(*, user: ActingUser) -> dict[str, Club]:
    """The clubs a file's names may mean, by name in any case: the user's own and
    public ones (``selectors.people.clubs_usable``); the system (None) all."""
    u = user_or_none(user)
    seen = Club.objects.all() if u is None else clubs_usable(user=u)
    clubs: dict[str, Club] = {}
    for club in seen.order_by("id"):
        # The user's own club wins over a public one whose name differs only in case.
        key, own = club.name.casefold(), u is not None and club.created_by_id == u.pk
        if key not in clubs or (own and clubs[key].created_by_id != club.created_by_id):
            clubs[key] = club
    return clubs


def _club_name_free(name: str, taken: set[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``... when a club the user may not see has it."""
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        suffix = f" ({number})"
        candidate = name[: CLUB_MAX - len(suffix)] + suffix
    taken.add(candidate)
    return candidate


def clubs_for_names(*, names: Mapping[str, str], user: ActingUser) -> dict[str, Club]:
    """The club each name stands for (``names``: name -> city for a new one):
    the user's own or a public one of that name, in any case; else a new club of
    the user's, named with a number when another organiser's private club
    has the name. Nothing of another organiser's private club is used or shown."""
    known = _clubs_known(user=user)
    clubs = {name: known[name.casefold()] for name in names if name.casefold() in known}
    wanted = [name for name in names if name not in clubs]
    if not wanted:
        return clubs
    taken = set(Club.objects.filter(name__in=wanted).values_list("name", flat=True))
    fresh: dict[str, Club] = {}
    for name in wanted:
        if name in taken:
            # One query for a name in use: the numbered names it may take are too.
            stem = name[: CLUB_MAX - 8]
            taken.update(Club.objects.filter(name__startswith=stem).values_list("name", flat=True))
        if name.casefold() not in fresh:
            fresh[name.casefold()] = Club(
                name=_club_name_free(name, taken), city=names[name], created_by=user_or_none(user)
            )
        clubs[name] = fresh[name.casefold()]
    slugs = club_slugs_free(club.name for club in fresh.values())
    for club, slug in zip(fresh.values(), slugs, strict=True):
        club.slug = slug
    Club.objects.bulk_create(fresh.values())
    return clubs


def _ascii_lower(text: str) -> str:
    """Lower case as SQLite's ``lower()`` has it: A to Z only."""
    return "".join(c.lower() if "A" <= c <= "Z" else c for c in text)


def _players_named(lines: list[_Line], *, user: ActingUser) -> dict[str, list[Player]]:
    """Existing players the user may see with a name of the file, by the name in
    any case (``casefold``), oldest first, with their clubs; one query. Another
    organiser's private player is not met (``None``, a command, sees all)."""
    names = {line.name for line in lines if line.name}
    if not names:
        return {}
    # SQLite lowers A to Z only, PostgreSQL every letter: ask for both spellings.
    lowered = {n.lower() for n in names} | {_ascii_lower(n) for n in names}
    visible = Q() if user is None else players_visible_q(user=user)
    found = (
        Player.objects.filter(visible)
        .alias(lowered_name=Lower("name"))
        .filter(Q(name__in=names) | Q(lowered_name__in=lowered))
        .select_related("club")
        .order_by("id")
    )
    wanted = {n.casefold() for n in names}
    named: dict[str, list[Player]] = {}
    for player in found:
        key = player.name.casefold()
        if key in wanted:
            named.setdefault(key, []).append(player)
    return named


def _adoptable_ids(named: dict[str, list[Player]], adoptable: QuerySet[Player] | None) -> set[int]:
    """Those of the players named in the file that ``adoptable`` holds, of no
    club; one query (none without ``adoptable``)."""
    clubless = [p.pk for players in named.values() for p in players if p.club_id is None]
    if adoptable is None or not clubless:
        return set()
    return set(adoptable.filter(pk__in=clubless).values_list("pk", flat=True))


def _player_matched(
    line: _Line,
    club: Club | None,
    named: dict[str, list[Player]],
    adoptable: Collection[int] = (),
) -> Player | None:
    """The existing player a line stands for (None: a new one). ``club`` is the
    line's club as known (None for none, or one to be made)."""
    same = named.get(line.name.casefold(), [])
    if line.club:
        member = next((p for p in same if club is not None and p.club_id == club.pk), None)
        if member is None and adoptable:
            member = next((p for p in same if p.club_id is None and p.pk in adoptable), None)
        return member
    if len(same) == 1:
        return same[0]
    return next((p for p in same if p.club_id is None), None)


@dataclass(frozen=True)
class PreviewLine:
    """One line of a players file as it will be imported.

    ``player`` is the existing player the line matches (see the module's
    vocabulary), or None for a new one; ``new`` says the organiser asked for a
    new player although it matches; ``club_new`` says its club will be created.
    """

    number: int
    name: str
    club: str
    problems: list[tuple[str, dict[str, Any]]]
    player: Player | None = None
    club_new: bool = False
    entered: bool = False
    category: str = ""
    new: bool = False

    def messages(self, translate: Callable[[str], str] = lambda s: s) -> list[str]:
        return [problem_text(template, params, translate) for template, params in self.problems]


@dataclass(frozen=True)
class ImportPreview:
    """A players file checked but not imported: its lines and every problem.

    ``problems`` are all of them (what ``players_import`` would refuse with);
    each line also carries its own; those on no listed line (a bad header, an
    empty file) are ``general``.
    """

    lines: list[PreviewLine]
    problems: list[Problem]

    @property
    def general(self) -> list[Problem]:
        numbers = {line.number for line in self.lines}
        return [p for p in self.problems if p[0] not in numbers]

    @property
    def error(self) -> PlayersFileError | None:
        return PlayersFileError(self.problems) if self.problems else None


def players_import_preview(
    *,
    text: str,
    tournament: Tournament | None = None,
    user: ActingUser = None,
    new_lines: Collection[int] = (),
    adoptable: QuerySet[Player] | None = None,
) -> ImportPreview:
    """Check a players file as ``players_import`` would, storing nothing.

    Each line says which existing player it matches (unless its number is in
    ``new_lines``; ``adoptable`` as the module says), whether its club exists
    already and, with ``tournament``, whether the player is entered in it.
    """
    lines, problems = _lines_checked(text)
    clubs = _clubs_known(user=user)
    named = _players_named(lines, user=user)
    adopted = _adoptable_ids(named, adoptable)
    entered: set[int] = set()
    if tournament is not None:
        ids = [p.pk for players in named.values() for p in players]
        entered = set(
            Entry.objects.filter(tournament=tournament, player_id__in=ids).values_list(
                "player_id", flat=True
            )
        )
    shown = []
    for line in lines:
        club = clubs.get(line.club.casefold()) if line.club else None
        matched = _player_matched(line, club, named, adopted)
        new = matched is not None and line.number in new_lines
        player = None if new else matched
        shown.append(
            PreviewLine(
                number=line.number,
                name=line.name,
                club=line.club,
                problems=[(t, p) for n, t, p in problems if n == line.number],
                player=matched,
                club_new=bool(line.club) and club is None,
                entered=player is not None and player.pk in entered,
                category=line.category,
                new=new,
            )
        )
    return ImportPreview(lines=shown, problems=sorted(problems, key=lambda p: p[0]))


@transaction.atomic
def players_import(
    *,
    text: str,
    tournament: Tournament | None = None,
    user: ActingUser = None,
    created_by: ActingUser = None,
    new_lines: Collection[int] = (),
    adoptable: QuerySet[Player] | None = None,
) -> ImportResult:
    """Create the players of a ``name,club`` CSV (and their clubs), all or nothing.

    A line that matches an existing player (see the module's vocabulary) is
    that player, unless its number is in ``new_lines`` (``adoptable``: see the
    module's vocabulary). With ``tournament``
    every listed player is entered. Raises ``PlayersFileError`` listing every
    bad line; then nothing is stored. New players and clubs are
    ``created_by``'s, else those of ``user`` (who imports; a command: nobody,
    so staff only).
    """
    creator = user_or_none(created_by) or user_or_none(user)
    lines, problems = _lines_checked(text)
    if problems:
        raise PlayersFileError(problems)

    # Clubs as the importing user may see them: another organiser's private club
    # is neither joined nor shown by naming it.
    viewer = user_or_none(user) or creator
    named_clubs = clubs_for_names(names={line.club: "" for line in lines if line.club}, user=viewer)
    clubs = {name.casefold(): club for name, club in named_clubs.items()}
    named = _players_named(lines, user=viewer)
    adopted = _adoptable_ids(named, adoptable)
    result = ImportResult()
    players: dict[int, Player] = {}
    for line in lines:
        club = clubs[line.club.casefold()] if line.club else None
        matched = None if line.number in new_lines else _player_matched(line, club, named, adopted)
        if matched is None:
            players[line.number] = Player(name=line.name, club=club, created_by=creator)
            result.created.append(players[line.number])
        else:
            players[line.number] = matched
            result.existing.append(matched)
    result.created = Player.objects.bulk_create(result.created)
    result.existing = list({p.pk: p for p in result.existing}.values())
    if tournament is not None:
        ids = list(dict.fromkeys(p.pk for p in [*result.created, *result.existing]))
        result.entered = len(entries_add(tournament=tournament, player_ids=ids, user=user))
        _categories_set(tournament=tournament, lines=lines, players=players, user=user)
    return result


def _categories_set(
    *,
    tournament: Tournament,
    lines: list[_Line],
    players: dict[int, Player],
    user: ActingUser,
) -> None:
    """Give each entry the category its line names; one audited change per category."""
    by_category: dict[str, list[int]] = {}
    for line in lines:
        if line.category:
            by_category.setdefault(line.category, []).append(players[line.number].pk)
    for category, ids in by_category.items():
        entries_category_set(tournament=tournament, player_ids=ids, category=category, user=user)

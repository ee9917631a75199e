"""Printable files: round score sheets, the blank club pad, standings, the final report.

Vocabulary:

* A *sheet* is one printed page for one match, or one blank pad page: the
  heading, the seated players, the *grid* (a row per game; per player the
  columns rack points, jokers and game score; a totals row), the signature
  boxes and the rules reminder. Its data is a :class:`Sheet`, a plain dict,
  so that forked worker processes can use it without the ORM.
* A *layout* (:class:`SheetLayout`) is a sheet's geometry in millimetres for
  one paper size, table size and number of games. Lines, shades and starting
  seat marks are drawn once per layout as one SVG, the *grid picture*, used as
  a CSS background; words are absolutely placed over it.
* A sheet is printed in two *layers*. The *static layer* is what every sheet
  of a round shares (grid picture, tournament, round, date, column labels,
  game numbers, starting seats, signature boxes, rules reminder): it is laid
  out once and drawn on every page as one shared PDF form XObject. The *page
  layer* is what differs from table to table: the table number, the entry
  link and the players' names. WeasyPrint's cost grows with the text boxes it
  lays out (about 1 ms each, plus about 3.5 ms a page), so a page layer of six
  boxes is several times cheaper than a whole sheet. The QR code is drawn into
  each page in PDF operators, a rectangle per run of dark modules: vector, and
  no work for WeasyPrint.
* *Print selectors* (``*_data``) read the database with planned queries and
  return plain data; *renderers* (``*_pdf``) turn plain data into PDF bytes.
  :func:`sheets_pdf` splits a large round into chunks of whole pages, renders
  them in forked processes (both cores) and joins them with pypdf.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import gc
import io
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, NamedTuple, TypedDict

import segno
from django.contrib.staticfiles import finders
from django.db import connections
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext

from scoring.pad import PadSheet

from .models import Adjustment, Match, Rack, Round, Seat, Tournament
from .selectors import StandingRow, final_places_for, standings_for, starting_seat

BASE_URL_DEFAULT = "http://127.0.0.1:8000"
ZERO = Decimal(0)

# Paper sizes in millimetres (portrait) and the page margin.
PAPER_MM: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 10.0
MM = 72 / 25.4  # PDF points per millimetre

# Below this many pages one process beats forking workers and joining their chunks.
PARALLEL_MIN_PAGES = 16


def base_url_default() -> str:
    """The site's address for links printed without a request (commands)."""
    return os.environ.get("RACKSCORE_BASE_URL", BASE_URL_DEFAULT).rstrip("/")


# ---------------------------------------------------------------------------
# Plain data


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
    url: str
    paper: str


class SheetSet(TypedDict):
    language: str
    paper: str
    title: str
    sheets: list[Sheet]


def scoresheets_data(*, round_: Round, base_url: str, paper: str | None = None) -> SheetSet:
    """Every match of a round as sheet data, by table; two queries.

    ``base_url`` is the site's address (``https://host``): the QR code of a
    sheet links to ``<base_url>/m/<token>/``, the match's private entry page.
    ``paper`` overrides the tournament's paper size.
    """
    tournament = round_.tournament
    paper = paper or tournament.paper
    matches = (
        Match.objects.filter(round=round_)
        .order_by("table")
        .only("id", "table", "token", "round_id")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("player__club")
                .only("match_id", "position", "player__name", "player__club__name")
                .order_by("position"),
            )
        )
    )
    root = base_url.rstrip("/")
    with translation.override(tournament.language):  # the sheets' language, not the request's
        stage = round_.get_stage_display() if round_.stage != Round.Stage.QUALIFYING else ""
        title = gettext("%(tournament)s, round %(round)s: score sheets") % {
            "tournament": tournament.name,
            "round": round_.number,
        }
    sheets: list[Sheet] = [
        {
            "tournament": tournament.name,
            "round": round_.number,
            "stage": str(stage),
            "table": match.table,
            "date": round_.date or tournament.date,
            "players": [
                {
                    "seat": seat.position,
                    "name": seat.player.name,
                    "club": seat.player.club.name if seat.player.club else "",
                }
                for seat in match.seats.all()
            ],
            "games": round_.games_per_match,
            "joker_penalty": tournament.joker_penalty,
            "url": f"{root}/m/{match.token}/",
            "paper": paper,
        }
        for match in matches
    ]
    return {
        "language": tournament.language,
        "paper": paper,
        "title": title,
        "sheets": sheets,
    }


def pad_data(*, pad: PadSheet) -> SheetSet:
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


@dataclass(frozen=True)
class MatchResult:
    table: int
    games: int
    players: list[tuple[str, Decimal, int]]  # name, match score, games won, in seat order


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
    points: Decimal
    reason: str


@dataclass(frozen=True)
class StandingsLine:
    """A standings row for print: its numbers as one run of monospaced, right-aligned
    columns (one text box instead of six: a table cell costs WeasyPrint ~0.8 ms)."""

    rank: int
    name: str
    club: str
    withdrawn: bool
    numbers: str


# The numeric columns of a printed standings line and their widths in characters.
NUMBER_COLUMNS = (
    ("score", 8),
    ("games", 6),
    ("wins", 5),
    ("rack_total", 7),
    ("table_points", 7),
    ("adjustments", 10),
)
MONO_CHAR_MM = 0.6021 * 8.5 * 25.4 / 72  # DejaVu Sans Mono's advance at 8.5 pt


def _number(value: Decimal | int) -> str:
    """A score as people write it: cents only when there are some."""
    if isinstance(value, Decimal) and value != value.to_integral_value():
        return f"{value:.2f}"
    return str(int(value))


def standings_lines(rows: Sequence[StandingRow]) -> list[StandingsLine]:
    return [
        StandingsLine(
            rank=row.rank,
            name=row.name,
            club=row.club,
            withdrawn=row.withdrawn,
            numbers="".join(
                (
                    ""
                    if name == "adjustments" and not row.adjustments
                    else _number(getattr(row, name))
                ).rjust(width)
                for name, width in NUMBER_COLUMNS
            ),
        )
        for row in rows
    ]


def number_columns_mm() -> list[float]:
    return [round(width * MONO_CHAR_MM, 2) for _name, width in NUMBER_COLUMNS]


@dataclass(frozen=True)
class Report:
    tournament: Tournament
    standings: list[StandingsLine]
    rounds: list[RoundResults]
    adjustments: list[AdjustmentLine]


def rounds_played(*, tournament: Tournament) -> int:
    """How many of the tournament's rounds have at least one game recorded; one query."""
    return (
        Round.objects.filter(tournament=tournament, matches__games__isnull=False).distinct().count()
    )


def report_data(*, tournament: Tournament) -> Report:
    """Final places, each round's results by table and the adjustments.

    A fixed number of queries: the final places' (see ``final_places_for``),
    one for the racks, three for the rounds with their tables and players,
    one for the adjustments. Match totals are summed here from the racks, so
    the report agrees with the standings to the cent. Labels (stages, kinds of
    adjustment) are in the tournament's language.
    """
    totals: dict[tuple[int, int], tuple[Decimal, int]] = {}
    games: dict[int, set[int]] = {}
    for match_id, player_id, score, winner, game_id in (
        Rack.objects.filter(game__match__round__tournament=tournament)
        .values_list("game__match_id", "player_id", "score", "winner", "game_id")
        .order_by()
    ):
        total, wins = totals.get((match_id, player_id), (Decimal(0), 0))
        totals[match_id, player_id] = (total + score, wins + int(winner))
        games.setdefault(match_id, set()).add(game_id)
    rounds_qs = tournament.round_set.order_by("number").prefetch_related(
        Prefetch(
            "matches",
            queryset=Match.objects.order_by("table").prefetch_related(
                Prefetch(
                    "seats",
                    queryset=Seat.objects.select_related("player")
                    .only("match_id", "position", "player_id", "player__name")
                    .order_by("position"),
                )
            ),
        )
    )
    adjustments_qs = (
        Adjustment.objects.filter(tournament=tournament)
        .select_related("player", "round")
        .order_by("created", "id")
    )
    with translation.override(tournament.language):
        rounds = [
            RoundResults(
                number=round_.number,
                stage=round_.get_stage_display() if round_.stage != Round.Stage.QUALIFYING else "",
                date=round_.date,
                matches=[
                    MatchResult(
                        table=match.table,
                        games=len(games.get(match.pk, ())),
                        players=[
                            (seat.player.name, *totals.get((match.pk, seat.player_id), (ZERO, 0)))
                            for seat in match.seats.all()
                        ],
                    )
                    for match in round_.matches.all()
                ],
            )
            for round_ in rounds_qs
        ]
        adjustments = [
            AdjustmentLine(
                player=a.player.name,
                round=a.round.number if a.round else None,
                kind=a.get_kind_display(),
                points=a.points,
                reason=a.reason,
            )
            for a in adjustments_qs
        ]
    return Report(
        tournament=tournament,
        standings=standings_lines(final_places_for(tournament=tournament)),
        rounds=rounds,
        adjustments=adjustments,
    )


# ---------------------------------------------------------------------------
# Geometry


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class SheetLayout:
    """Where everything sits on a sheet, in mm from the top left of the page's content area."""

    key: str
    paper: str
    width: float
    height: float
    players: int
    games: int
    qr: Box
    grid: Box
    name_h: float  # the row of player names
    label_h: float  # the row of column labels
    row_h: float
    groups: tuple[Box, ...]  # per player: the three columns together
    cols: tuple[tuple[Box, Box, Box], ...]  # per player: rack, jokers, score
    signatures: tuple[Box, ...]  # under each player's columns
    rules: Box
    notes: Box | None  # what is left of the page, when there is room to write

    @property
    def rows_y(self) -> float:
        return self.grid.y + self.name_h + self.label_h

    @property
    def totals_y(self) -> float:
        return self.rows_y + self.games * self.row_h


COL_GAME_W, COL_START_W = 11.0, 13.0
QR_MM = 30.0
HEADER_H = 37.0


@functools.lru_cache(maxsize=256)
def sheet_layout(*, paper: str, players: int, games: int) -> SheetLayout:
    """The layout of a sheet; rows share the page's height, up to a roomy 12 mm."""
    page_w, page_h = PAPER_MM[paper]
    width, height = page_w - 2 * MARGIN_MM, page_h - 2 * MARGIN_MM
    name_h, label_h = 10.0, 6.0
    signature_gap, signature_h, rules_gap, rules_h = 5.0, 14.0, 4.0, 16.0
    footer_h = signature_gap + signature_h + rules_gap + rules_h
    room = height - HEADER_H - name_h - label_h - footer_h
    row_h = round(min(12.0, room / (games + 1)), 2)
    left = COL_GAME_W + COL_START_W
    group_w = (width - left) / players
    groups, cols = [], []
    for i in range(players):
        x = left + i * group_w
        groups.append(Box(x, HEADER_H, group_w, 0))
        # Jokers are 0, 1 or 2: a narrow column; rack points and scores take 2–3 digits.
        rack_w, joker_w = group_w * 0.38, group_w * 0.21
        cols.append(
            (
                Box(x, 0, rack_w, 0),
                Box(x + rack_w, 0, joker_w, 0),
                Box(x + rack_w + joker_w, 0, group_w - rack_w - joker_w, 0),
            )
        )
    grid = Box(0, HEADER_H, width, name_h + label_h + (games + 1) * row_h)
    sign_y = grid.y + grid.h + signature_gap
    signatures = tuple(Box(g.x + 1, sign_y, g.w - 2, signature_h) for g in groups)
    rules = Box(0, sign_y + signature_h + rules_gap, width, rules_h)
    notes_y = rules.y + rules.h + 3
    notes = Box(0, notes_y, width, height - notes_y) if height - notes_y >= 25 else None
    return SheetLayout(
        key=f"{paper}-{players}x{games}",
        paper=paper,
        width=width,
        height=height,
        players=players,
        games=games,
        qr=Box(width - QR_MM, 0, QR_MM, QR_MM),
        grid=grid,
        name_h=name_h,
        label_h=label_h,
        row_h=row_h,
        groups=tuple(groups),
        cols=tuple(cols),
        signatures=signatures,
        rules=rules,
        notes=notes,
    )


def _n(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


@functools.lru_cache(maxsize=256)
def grid_svg(*, paper: str, players: int, games: int) -> str:
    """The grid picture of a layout: every line, shade and starting mark of a sheet."""
    lay = sheet_layout(paper=paper, players=players, games=games)
    w, h, g = lay.width, lay.height, lay.grid
    left = COL_GAME_W + COL_START_W
    head_h = lay.name_h + lay.label_h
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(w)}mm" height="{_n(h)}mm" '
        f'viewBox="0 0 {_n(w)} {_n(h)}">'
    ]
    add = out.append
    # Shades first, lines over them: the heads, every other game row, the totals row.
    add(f'<rect x="0" y="{_n(g.y)}" width="{_n(w)}" height="{_n(head_h)}" fill="#e4e4e4"/>')
    for game in range(2, games + 1, 2):
        y = lay.rows_y + (game - 1) * lay.row_h
        add(f'<rect x="0" y="{_n(y)}" width="{_n(w)}" height="{_n(lay.row_h)}" fill="#f2f2f2"/>')
    add(f'<rect x="0" y="{_n(lay.totals_y)}" width="{_n(w)}" height="{_n(lay.row_h)}" '
        'fill="#e4e4e4"/>')  # fmt: skip
    # No jokers total: that cell is crossed out.
    crosses = "".join(
        f"M{_n(c[1].x)} {_n(lay.totals_y + lay.row_h)}l{_n(c[1].w)} {_n(-lay.row_h)}"
        for c in lay.cols
    )
    add(f'<path d="{crosses}" stroke="#888" stroke-width="0.3"/>')
    # The starting player's mark: a triangle in the top left of their rack cell.
    mark = min(3.5, lay.row_h * 0.45)
    marks = "".join(
        f"M{_n(lay.cols[starting_seat(game_number=n, table_size=players) - 1][0].x)} "
        f"{_n(lay.rows_y + (n - 1) * lay.row_h)}h{_n(mark)}l{_n(-mark)} {_n(mark)}z"
        for n in range(1, games + 1)
    )
    add(f'<path d="{marks}" fill="#333"/>')
    # Thin lines: every row, the labels' top, the columns inside a player's group.
    thin = [f"M0 {_n(lay.rows_y + r * lay.row_h)}H{_n(w)}" for r in range(1, games + 1)]
    thin.append(f"M{_n(left)} {_n(g.y + lay.name_h)}H{_n(w)}")
    thin.extend(
        f"M{_n(col.x)} {_n(g.y + lay.name_h)}V{_n(g.y + g.h)}" for c in lay.cols for col in c[1:]
    )
    add(f'<path d="{"".join(thin)}" stroke="#808080" stroke-width="0.25" fill="none"/>')
    # Thick lines: between players and around the game and start columns, under
    # the heads, over the totals, and the frame.
    # (The game | starts line stops over the totals row: "Total" spans both.)
    thick = [
        f"M{_n(COL_GAME_W)} {_n(g.y)}V{_n(lay.totals_y)}",
        f"M{_n(left)} {_n(g.y)}V{_n(g.y + g.h)}",
    ]
    thick.extend(f"M{_n(b.x)} {_n(g.y)}V{_n(g.y + g.h)}" for b in lay.groups[1:])
    thick.extend(f"M0 {_n(y)}H{_n(w)}" for y in (lay.rows_y, lay.totals_y))
    add(f'<path d="{"".join(thick)}" stroke="#000" stroke-width="0.5" fill="none"/>')
    add(f'<rect x="0.3" y="{_n(g.y)}" width="{_n(w - 0.6)}" height="{_n(g.h)}" '
        'stroke="#000" stroke-width="0.6" fill="none"/>')  # fmt: skip
    for box in lay.signatures:
        add(f'<rect x="{_n(box.x)}" y="{_n(box.y)}" width="{_n(box.w)}" height="{_n(box.h)}" '
            'stroke="#000" stroke-width="0.35" fill="none" rx="1.5"/>')  # fmt: skip
    if lay.notes:
        n = lay.notes
        add(f'<rect x="0.3" y="{_n(n.y)}" width="{_n(n.w - 0.6)}" height="{_n(n.h - 0.3)}" '
            'stroke="#aaa" stroke-width="0.3" fill="none" rx="1.5"/>')  # fmt: skip
    out.append("</svg>")
    return "".join(out)


def layout_css(layout: SheetLayout) -> str:
    """The places of a layout's words, as compound-class rules (``.A4-4x8.nm``)."""
    lay = layout
    k = f".{lay.key}"
    grid_url = GRID_URL.format(paper=lay.paper, players=lay.players, games=lay.games)
    font = _n(min(11.0, lay.row_h * 1.9))
    rows = f"line-height:{_n(lay.row_h)}mm;font-size:{font}pt"
    sign = lay.signatures[0]
    rules = [
        f".sheet{k}{{width:{_n(lay.width)}mm;height:{_n(lay.height)}mm}}",
        f".sheet{k}.bg{{background-image:url({grid_url})}}",
        f"{k}.gn,{k}.st{{top:{_n(lay.rows_y)}mm;{rows}}}",
        f"{k}.tl{{top:{_n(lay.totals_y)}mm;{rows}}}",
        f"{k}.nm,{k}.sn{{top:{_n(lay.grid.y)}mm}}",
        f"{k}.lb{{top:{_n(lay.grid.y + lay.name_h)}mm}}",
        f"{k}.hs{{top:{_n(lay.grid.y)}mm;line-height:{_n(lay.name_h + lay.label_h)}mm}}",
        f"{k}.sgh{{top:{_n(sign.y)}mm}}",
        f"{k}.sg{{top:{_n(sign.y + sign.h - 4)}mm}}",
        f"{k}.rl{{top:{_n(lay.rules.y)}mm}}",
    ]
    if lay.notes:
        rules.append(f"{k}.nt{{top:{_n(lay.notes.y + 1)}mm}}")
    for i, (group, cols) in enumerate(zip(lay.groups, lay.cols, strict=True), start=1):
        rules.append(f"{k}.p{i}{{left:{_n(group.x)}mm;width:{_n(group.w)}mm}}")
        rules.extend(
            f"{k}.{letter}{i}{{left:{_n(col.x)}mm;width:{_n(col.w)}mm}}"
            for letter, col in zip("rjs", cols, strict=True)
        )
        rules.append(f"{k}.g{i}{{left:{_n(lay.signatures[i - 1].x + 1.5)}mm}}")
    return "\n".join(rules)


# ---------------------------------------------------------------------------
# Rendering

GRID_URL = "rackscore:grid/{paper}/{players}x{games}.svg"


@functools.lru_cache(maxsize=1)
def _fetcher() -> Any:
    """A URL fetcher that serves the grid pictures and data: URLs, and nothing else.

    Prints carry names typed by users; nothing in them may make the server
    read a file or fetch a network address.
    """
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class Fetcher(URLFetcher):
        def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
            if url.startswith("rackscore:grid/"):
                paper, size = url.removeprefix("rackscore:grid/").removesuffix(".svg").split("/")
                players, games = (int(v) for v in size.split("x"))
                svg = grid_svg(paper=paper, players=players, games=games)
                return URLFetcherResponse(url, svg.encode(), {"Content-Type": "image/svg+xml"})
            return super().fetch(url, headers)

    return Fetcher(allowed_protocols=["data"])


@functools.lru_cache(maxsize=8)
def _stylesheet(name: str) -> Any:
    from weasyprint import CSS

    path = finders.find(f"print/{name}")
    if not isinstance(path, str):
        raise FileNotFoundError(f"static/print/{name}")
    return CSS(filename=path, url_fetcher=_fetcher())


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cycle collector: a layout's boxes all live until the PDF is written,
    and collecting while WeasyPrint builds them costs a fifth of its time for nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


# Held while WeasyPrint runs in this process and while it forks workers: a
# thread inside Pango or fontconfig holds their C mutexes, and a worker forked
# then would inherit them locked, forever. (Renders are CPU-bound under the GIL
# anyway: serialising them costs no throughput.)
_RENDER_LOCK = threading.Lock()


@contextlib.contextmanager
def _rendering() -> Iterator[None]:
    if multiprocessing.current_process().daemon:  # a pool worker: one thread, no forks
        yield
        return
    with _RENDER_LOCK:
        yield


def html_pdf(html: str, *, stylesheet: str) -> bytes:
    """One HTML document to PDF bytes, in this process."""
    from weasyprint import HTML

    with _rendering(), _gc_paused():
        document = HTML(string=html, base_url="rackscore:/", url_fetcher=_fetcher())
        return bytes(document.write_pdf(stylesheets=[_stylesheet(stylesheet)]))


def _layout_of(sheet: Sheet) -> SheetLayout:
    return sheet_layout(paper=sheet["paper"], players=len(sheet["players"]), games=sheet["games"])


class StaticKey(NamedTuple):
    """Everything a sheet's static layer depends on."""

    paper: str
    players: int
    games: int
    language: str
    joker_penalty: int
    entry_link: bool
    tournament: str
    round: int | None  # None: a blank pad sheet
    stage: str
    date: datetime.date | None


def static_key(sheet: Sheet, *, language: str) -> StaticKey:
    return StaticKey(
        paper=sheet["paper"],
        players=len(sheet["players"]),
        games=sheet["games"],
        language=language,
        joker_penalty=sheet["joker_penalty"],
        entry_link=bool(sheet["url"]),
        tournament=sheet["tournament"],
        round=sheet["round"],
        stage=sheet["stage"],
        date=sheet["date"],
    )


def sheets_html(
    *, sheet_set: SheetSet, sheets: Sequence[Sheet] | None = None, layers: str = "both"
) -> str:
    """One HTML document with a page per sheet, in the set's language.

    ``layers`` is ``"static"`` (the grid picture and the words every sheet of a
    round shares), ``"page"`` (only the words that differ from sheet to sheet)
    or ``"both"`` (whole sheets, the QR code as inline SVG).
    """
    chosen = sheet_set["sheets"] if sheets is None else sheets
    pages = []
    layouts: dict[str, SheetLayout] = {}
    for sheet in chosen:
        layout = _layout_of(sheet)
        layouts[layout.key] = layout
        size = len(sheet["players"])
        pages.append(
            {
                "sheet": sheet,
                "layout": layout,
                "qr": qr_svg(sheet["url"]) if sheet["url"] and layers == "both" else "",
                "rows": [
                    (g, starting_seat(game_number=g, table_size=size))
                    for g in range(1, sheet["games"] + 1)
                ],
                "names": [
                    (p, name_fit(p["name"], width=layout.groups[0].w)) for p in sheet["players"]
                ],
            }
        )
    with translation.override(sheet_set["language"]):
        return render_to_string(
            "print/sheets.html",
            {
                "pages": pages,
                "title": sheet_set["title"],
                "paper": sheet_set["paper"],
                "language": sheet_set["language"],
                "layout_css": "\n".join(layout_css(lay) for lay in layouts.values()),
                "static": layers in ("static", "both"),
                "page_layer": layers in ("page", "both"),
                # Whole sheets are wrapped in a box carrying the grid picture; a
                # page layer's blocks sit straight in the page (one box less each).
                "wrap": layers in ("static", "both"),
            },
        )


# segno picks the best of the 8 data masks by scoring each (ISO 18004 7.8.3),
# which is 80 % of its time: 6 ms a code, a fifth of a round's whole print. A
# fixed mask makes a code every reader decodes, in 1 ms.
QR_MASK = 0


def qr_code(url: str) -> segno.QRCode:
    """The QR code of an entry link: level M (15 % of it may be soiled), fixed mask."""
    return segno.make(url, error="m", mask=QR_MASK, micro=False, boost_error=False)


NAME_SIZES = (("", 11.0), ("f1", 9.5), ("f2", 8.0))
NAME_PADDING_MM = 10.0  # 7 mm for the seat number, the rest to keep clear of the line
PT_MM = 25.4 / 72
FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)


@functools.lru_cache(maxsize=1)
def _advances() -> dict[str, float]:
    """DejaVu Sans's advance widths in em, by character ({} when the file is elsewhere)."""
    from fontTools.ttLib import TTFont

    for path in FONT_FILES:
        try:
            font = TTFont(path, lazy=True)
        except OSError:
            continue
        metrics, per_em = font["hmtx"], font["head"].unitsPerEm
        return {chr(c): metrics[g][0] / per_em for c, g in font.getBestCmap().items()}
    return {}


def text_width_mm(text: str, *, size: float) -> float:
    """The width of a line of DejaVu Sans at ``size`` pt (0.6 em for an unknown character)."""
    advances = _advances()
    return sum(advances.get(c, 0.6) for c in text) * size * PT_MM


def name_fit(name: str, *, width: float) -> str:
    """The size class that fits a name on one line of a ``width`` mm name cell
    (``f3``: two lines), measured with the font's metrics: no layout needed."""
    room = width - NAME_PADDING_MM
    for fit, size in NAME_SIZES:
        if text_width_mm(name, size=size) <= room:
            return fit
    return "f3"


def qr_svg(url: str) -> str:
    """The QR code of a URL as inline vector SVG, sized by CSS (whole sheets)."""
    return str(qr_code(url).svg_inline(border=0, omitsize=True, svgclass="qrc"))


def qr_ops(url: str, *, box: Box, page_height: float) -> bytes:
    """PDF operators that draw the QR code of a URL into ``box`` (mm, content area).

    A filled rectangle per horizontal run of dark modules. PDF space has its
    origin at the page's bottom left and counts in points.
    """
    matrix = [list(row) for row in qr_code(url).matrix_iter(border=0)]
    size = len(matrix)
    module = box.w * MM / size
    left = (MARGIN_MM + box.x) * MM
    top = (page_height - MARGIN_MM - box.y) * MM
    ops = ["q 0 0 0 rg"]
    for r, row in enumerate(matrix):
        y = top - (r + 1) * module
        c = 0
        while c < size:
            if not row[c]:
                c += 1
                continue
            start = c
            while c < size and row[c]:
                c += 1
            # A hair taller than a module, so that adjacent rows leave no seam.
            ops.append(
                f"{left + start * module:.3f} {y - 0.02:.3f} "
                f"{(c - start) * module:.3f} {module + 0.04:.3f} re"
            )
    ops.append("f Q")
    return "\n".join(ops).encode()


class _Chunk(NamedTuple):
    """A run of whole pages rendered together: the page layers' PDF, each page's QR code."""

    pdf: bytes
    qr: list[bytes]


# The sheet set being rendered, set just before forking: each worker reads its
# chunk from its own copy. Set and cleared under _RENDER_LOCK.
_JOB: dict[str, SheetSet] = {}


def _chunk_of_job(bounds: tuple[int, int]) -> _Chunk:
    """A pool worker's task: its chunk of the sheet set it was forked with."""
    return _chunk_render(_JOB["sheet_set"], bounds)


def _chunk_render(sheet_set: SheetSet, bounds: tuple[int, int]) -> _Chunk:
    sheets = sheet_set["sheets"][bounds[0] : bounds[1]]
    html = sheets_html(sheet_set=sheet_set, sheets=sheets, layers="page")
    return _Chunk(
        pdf=html_pdf(html, stylesheet="sheet.css"),
        qr=[
            qr_ops(s["url"], box=_layout_of(s).qr, page_height=PAPER_MM[s["paper"]][1])
            if s["url"]
            else b""
            for s in sheets
        ],
    )


@functools.lru_cache(maxsize=32)
def static_pdf(key: StaticKey) -> bytes:
    """A static layer as a one-page PDF (kept per process: a round prints it again and again)."""
    sheet: Sheet = {
        "tournament": key.tournament,
        "round": key.round,
        "stage": key.stage,
        "table": None if key.round is None else 0,
        "date": key.date,
        "players": [{"seat": i, "name": "", "club": ""} for i in range(1, key.players + 1)],
        "games": key.games,
        "joker_penalty": key.joker_penalty,
        "url": "-" if key.entry_link else "",
        "paper": key.paper,
    }
    sheet_set: SheetSet = {
        "language": key.language,
        "paper": key.paper,
        "title": key.tournament,
        "sheets": [sheet],
    }
    return html_pdf(sheets_html(sheet_set=sheet_set, layers="static"), stylesheet="sheet.css")


@functools.lru_cache(maxsize=1)
def _warm() -> None:
    """Load fonts and WeasyPrint's caches before forking, so that every worker starts warm."""
    html_pdf("<p>Rackscore <b>1</b></p>", stylesheet="sheet.css")
    _advances()


def workers_default() -> int:
    """Worker processes for large prints: the cores this process may use, at most two."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


def _chunks(total: int, parts: int) -> list[tuple[int, int]]:
    """``parts`` runs of pages of (nearly) equal length, as (start, stop)."""
    size, extra = divmod(total, parts)
    bounds, start = [], 0
    for i in range(parts):
        stop = start + size + (1 if i < extra else 0)
        if stop > start:
            bounds.append((start, stop))
        start = stop
    return bounds


def _connections_close() -> None:
    """Close database connections before forking: the workers never use them.

    A connection inside a transaction (an atomic request, a test) stays open:
    closing it would end the transaction. The workers leave with ``os._exit``
    and never touch it.
    """
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def sheets_pdf(
    *,
    sheet_set: SheetSet,
    workers: int | None = None,
    chunk_pages: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """A sheet set as one PDF, a page per sheet, in the set's order.

    From :data:`PARALLEL_MIN_PAGES` pages on, the pages are split into chunks
    rendered by ``workers`` forked processes (default: both cores). Smaller
    ``chunk_pages`` make more chunks, for a finer ``progress`` (called with the
    number of pages done) at a small cost.
    """
    sheets = sheet_set["sheets"]
    if not sheets:
        raise ValueError("a sheet set without sheets has no pages")
    if any(s["paper"] != sheet_set["paper"] for s in sheets):
        raise ValueError("the sheets of a set share its paper size")
    workers = workers or workers_default()
    if len(sheets) < PARALLEL_MIN_PAGES or multiprocessing.current_process().daemon:
        workers = 1  # (a daemon process, such as a pool worker, may not fork its own)
    parts = max(workers, -(-len(sheets) // chunk_pages) if chunk_pages else 1)
    bounds = _chunks(len(sheets), parts)
    keys = {static_key(s, language=sheet_set["language"]) for s in sheets}

    chunks: list[_Chunk] = []
    if workers == 1:
        for b in bounds:
            chunks.append(_chunk_render(sheet_set, b))
            if progress:
                progress(b[1])
    else:
        _warm()
        _connections_close()
        with _rendering():  # (Pool forks its workers here, each with its copy of _JOB)
            _JOB["sheet_set"] = sheet_set
            try:
                pool = multiprocessing.get_context("fork").Pool(workers)
            finally:
                _JOB.clear()
        with pool:
            pending = pool.imap(_chunk_of_job, bounds)
            for key in keys:  # laid out here while the workers run
                static_pdf(key)
            for b, chunk in zip(bounds, pending, strict=True):
                chunks.append(chunk)
                if progress:
                    progress(b[1])
    return _layers_join(sheet_set=sheet_set, chunks=chunks)


def _layers_join(*, sheet_set: SheetSet, chunks: Sequence[_Chunk]) -> bytes:
    """One PDF of the chunks' pages, each drawn over its static layer, with its QR code.

    A static layer becomes a form XObject named in the page's resources; the
    page's content becomes ``q /Layer Do Q q <page layer> Q <QR code>``
    (WeasyPrint's content leaves its page transform in force, so it is
    wrapped in q … Q).
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        DictionaryObject,
        IndirectObject,
        NameObject,
    )

    writer = PdfWriter()
    language = sheet_set["language"]

    def stream(data: bytes) -> IndirectObject:
        obj = DecodedStreamObject()
        obj.set_data(data)
        return writer._add_object(obj.flate_encode() if len(data) > 200 else obj)

    layers: dict[StaticKey, tuple[NameObject, IndirectObject, IndirectObject]] = {}

    def layer_of(sheet: Sheet) -> tuple[NameObject, IndirectObject, IndirectObject]:
        key = static_key(sheet, language=language)
        if key not in layers:
            page = PdfReader(io.BytesIO(static_pdf(key))).pages[0]
            form = DecodedStreamObject()
            form.set_data(page.get_contents().get_data())  # type: ignore[union-attr]
            form[NameObject("/Type")] = NameObject("/XObject")
            form[NameObject("/Subtype")] = NameObject("/Form")
            form[NameObject("/BBox")] = page.mediabox
            form[NameObject("/Resources")] = page["/Resources"].clone(writer)
            name = NameObject(f"/RsLayer{len(layers)}")
            layers[key] = (
                name,
                writer._add_object(form.flate_encode()),
                stream(f"q {name} Do Q q ".encode()),
            )
        return layers[key]

    end = stream(b" Q")
    sheets = iter(sheet_set["sheets"])
    for chunk in chunks:
        for page, qr in zip(PdfReader(io.BytesIO(chunk.pdf)).pages, chunk.qr, strict=True):
            name, form, start = layer_of(next(sheets))
            added = writer.add_page(page)
            resources = added["/Resources"].get_object()
            assert isinstance(resources, DictionaryObject)
            xobjects = resources.get("/XObject")
            if not isinstance(xobjects, DictionaryObject):
                xobjects = DictionaryObject()
                resources[NameObject("/XObject")] = xobjects
            xobjects[name] = form
            contents = [start, added.raw_get("/Contents"), stream(b" Q " + qr) if qr else end]
            added[NameObject("/Contents")] = ArrayObject(contents)
    writer.add_metadata({"/Title": sheet_set["title"], "/Creator": "Rackscore"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def sheets_pdf_whole(*, sheet_set: SheetSet) -> bytes:
    """The same sheets the plain way: every page whole, one document, one process.

    Same look as :func:`sheets_pdf`, several times slower on a large round;
    kept as the benchmark's baseline and as the reference the layers must match.
    """
    return html_pdf(sheets_html(sheet_set=sheet_set, layers="both"), stylesheet="sheet.css")


def scoresheets_pdf(
    *,
    round_: Round,
    base_url: str,
    paper: str | None = None,
    workers: int | None = None,
    chunk_pages: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> bytes:
    """A round's score sheets, a page per match by table, in the tournament's language."""
    return sheets_pdf(
        sheet_set=scoresheets_data(round_=round_, base_url=base_url, paper=paper),
        workers=workers,
        chunk_pages=chunk_pages,
        progress=progress,
    )


def pad_pdf(*, pad: PadSheet) -> bytes:
    """A blank club score sheet."""
    return sheets_pdf(sheet_set=pad_data(pad=pad), workers=1)


def standings_pdf(*, tournament: Tournament) -> bytes:
    """The standings, as on the standings page, in the tournament's language."""
    with translation.override(tournament.language):
        html = render_to_string(
            "print/standings.html",
            {
                "tournament": tournament,
                "rows": standings_lines(standings_for(tournament=tournament)),
                "number_columns": number_columns_mm(),
                "rounds_played": rounds_played(tournament=tournament),
                "paper": tournament.paper,
                "printed": timezone.localtime(),
            },
        )
    return html_pdf(html, stylesheet="report.css")


def report_pdf(*, tournament: Tournament) -> bytes:
    """The final report for the organiser's records, in the tournament's language."""
    report = report_data(tournament=tournament)
    with translation.override(tournament.language):
        html = render_to_string(
            "print/report.html",
            {
                "report": report,
                "number_columns": number_columns_mm(),
                "tournament": tournament,
                "paper": tournament.paper,
                "printed": timezone.localtime(),
            },
        )
    return html_pdf(html, stylesheet="report.css")

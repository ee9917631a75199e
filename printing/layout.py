"""A sheet's geometry in millimetres, the grid picture, and the CSS that places its words.

Vocabulary: a *layout* (:class:`SheetLayout`) is where everything sits on
a sheet of one paper size, table size and number of games, in mm from the
top left of the page's content area (inside the margin); a :class:`Box` is
one rectangle of it. The *grid picture* (:func:`grid_svg`) is every line,
shade and starting seat mark of a layout as one SVG, the sheet's CSS
background, fetched by WeasyPrint at :data:`GRID_URL`; :func:`layout_css`
places the words over it with one compound-class rule per kind of word.
The *number columns* are the standings' six numbers, monospaced (a seventh,
the average, when a tournament ranks by it).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from printing.data import Sheet
from scoring.rules import starting_seat

# Paper sizes in millimetres (portrait) and the page margin.
PAPER_MM: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 10.0
MM = 72 / 25.4  # PDF points per millimetre

COL_GAME_W, COL_START_W = 11.0, 13.0
QR_MM = 30.0
HEADER_H = 37.0

# Where WeasyPrint finds a layout's grid picture (served by render's URL fetcher).
GRID_URL = "rackscore:grid/{paper}/{players}x{games}.svg"

# The numeric columns of a printed standings line and their widths in characters.
# In characters, a space included: the widest value the bounds allow must fit
# (adjustments of -999999.99, and the score that carries them), and the
# headings room at 5 pt at least for their longest word in every language
# ("Gewonnen", "Ablagebrettern", "Gjennomsnitt").
NUMBER_COLUMNS = (
    ("score", 11),
    ("games", 6),
    ("wins", 7),
    ("rack_total", 10),
    ("table_points", 8),
    ("adjustments", 11),
)
# Widths of every number a standings line may show, the average (printed first
# when it is the ranking) included.
NUMBER_WIDTHS: dict[str, int] = {**dict(NUMBER_COLUMNS), "average": 9}
MONO_CHAR_MM = 0.6021 * 8.5 * 25.4 / 72  # DejaVu Sans Mono's advance at 8.5 pt


def number_columns_mm(names: Sequence[str] | None = None) -> list[float]:
    """The widths of the number columns ``names`` (the default columns when none)."""
    chosen = [n for n, _width in NUMBER_COLUMNS] if names is None else names
    return [round(NUMBER_WIDTHS[name] * MONO_CHAR_MM, 2) for name in chosen]


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


@functools.lru_cache(maxsize=256)
def sheet_layout(*, paper: str, players: int, games: int) -> SheetLayout:
    """The layout of a sheet; rows share the page's height, up to a roomy 12 mm."""
    page_w, page_h = PAPER_MM[paper]
    width, height = page_w - 2 * MARGIN_MM, page_h - 2 * MARGIN_MM
    name_h, label_h = 10.0, 6.0
    # The rules reminder: 4 lines of the rulebook, 2 more for an event's cap and bonuses.
    signature_gap, signature_h, rules_gap, rules_h = 5.0, 14.0, 4.0, 23.0
    footer_h = signature_gap + signature_h + rules_gap + rules_h
    room = height - HEADER_H - name_h - label_h - footer_h
    row_h = round(min(12.0, room / (games + 1)), 2)
    left = COL_GAME_W + COL_START_W
    group_w = (width - left) / players
    groups: list[Box] = []
    cols: list[tuple[Box, Box, Box]] = []
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


def layout_of(sheet: Sheet) -> SheetLayout:
    return sheet_layout(paper=sheet["paper"], players=len(sheet["players"]), games=sheet["games"])


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

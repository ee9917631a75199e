"""The standings and the final report laid out in Python: blocks, tables, pages of drawn marks.

Vocabulary: a *block* (:class:`Block`) is a run of marks that stays together
on one page (a table row, a heading, a row of match boxes), measured from
its own top; :func:`blocks_paginated` stacks blocks down the page's content
area and starts a new page when the next one does not fit, repeating a
table's *head* (its row of column headings) at the top of each page the
table continues on. A *column* (:class:`Column`) is a table column's place
and alignment; a *cell* is its text, wrapped to the column's width, or for a
standings line's numbers the *runs* of monospaced text side by side (the
ranking's column bold). Every string arrives translated, every number as
text in the document's language: nothing here picks words or writes numbers,
only places them. Sizes follow the old stylesheet (``report.css``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from printing.data import AdjustmentLine, RoundResults, StandingsLine
from printing.drawn import PT_PER_MM, FontName, Group, Mark, Rule, Shade, Text, text_wrapped
from printing.fonts import text_width_mm
from printing.layout import MONO_CHAR_MM, PAPER_MM

MARGIN_TOP, MARGIN_SIDE, MARGIN_BOTTOM = 14.0, 12.0, 16.0
LINE = 1.25  # line height, in font sizes
BASELINE = 0.97  # DejaVu's baseline from the top of a 1.25 line, in font sizes
GREY_HEAD, GREY_RULE, GREY_META, GREY_WITHDRAWN = 0.894, 0.733, 0.267, 0.467
CELL_PAD_X, CELL_PAD_Y = 1.0, 0.8
HEAD_SIZE, CELL_SIZE = 7.0, 8.5
MATCH_W, MATCH_GAP, MATCH_ROW_GAP = 44.0, 2.0, 3.0


def _mm(size_pt: float) -> float:
    return size_pt / PT_PER_MM


def _line_h(size: float) -> float:
    return _mm(size) * LINE


def _baseline(top: float, size: float) -> float:
    return top + _mm(size) * BASELINE


@dataclass
class Block:
    height: float
    marks: list[Mark] = field(default_factory=list)
    keep_with_next: bool = False
    break_before: bool = False
    head: Block | None = None  # repeated first on a page this block starts


def blocks_paginated(blocks: Sequence[Block], *, paper: str) -> list[list[Group]]:
    """The blocks stacked on pages of ``paper``; a page holds at least one block."""
    top, bottom = MARGIN_TOP, PAPER_MM[paper][1] - MARGIN_BOTTOM
    pages: list[list[Group]] = [[]]
    y = top
    for i, block in enumerate(blocks):
        needed = block.height
        j = i
        while blocks[j].keep_with_next and j + 1 < len(blocks):  # a heading joins what follows
            j += 1
            needed += blocks[j].height
        if (block.break_before and y > top) or (y + needed > bottom and y > top):
            pages.append([])
            y = top
            if block.head is not None:
                pages[-1].append(Group(y, block.head.marks))
                y += block.head.height
        pages[-1].append(Group(y, block.marks))
        y += block.height
    return pages


def page_numbers_added(pages: list[list[Group]], *, paper: str) -> list[list[Group]]:
    """Each page with "n / N" in its bottom margin, on the right."""
    width, height = PAPER_MM[paper]
    return [
        [*groups, Group(0.0, [Text(width - MARGIN_SIDE, height - 7.0, f"{n} / {len(pages)}",
                                   size=8, grey=0.333, align="right")])]
        for n, groups in enumerate(pages, 1)
    ]  # fmt: skip


def content_width(paper: str) -> float:
    return PAPER_MM[paper][0] - 2 * MARGIN_SIDE


def paragraph(
    text: str,
    *,
    paper: str,
    size: float,
    font: FontName = "sans",
    grey: float = 0.0,
    before: float = 0.0,
    after: float = 0.0,
    keep_with_next: bool = False,
    break_before: bool = False,
) -> Block:
    """Text wrapped to the content width, with space above and below."""
    lines = text_wrapped(text, width=content_width(paper), font=font, size=size)
    marks: list[Mark] = [
        Text(MARGIN_SIDE, _baseline(before + i * _line_h(size), size), line, font, size, grey)
        for i, line in enumerate(lines)
    ]
    return Block(
        before + len(lines) * _line_h(size) + after,
        marks,
        keep_with_next=keep_with_next,
        break_before=break_before,
    )


def document_head(*, paper: str, org: str, heading: str, meta: str) -> list[Block]:
    """The first page's top: tournament, club and date; the document's name; the facts line."""
    return [
        paragraph(org, paper=paper, size=10, font="bold", keep_with_next=True),
        paragraph(heading, paper=paper, size=20, font="bold", before=1, after=1,
                  keep_with_next=True),
        paragraph(meta, paper=paper, size=8.5, grey=GREY_META, after=5, keep_with_next=True),
    ]  # fmt: skip


@dataclass(frozen=True)
class Column:
    x: float  # left edge, mm from the paper's left
    w: float
    align: Literal["left", "right"] = "left"
    pad: float = CELL_PAD_X


Runs = tuple[tuple[str, FontName], ...]  # monospaced texts side by side


HEAD_SIZE_MIN = 5.0  # a heading shrinks no further; a word still too wide is broken
HEAD_SIZE_STEP = 0.25


def heading_fitted(text: str, *, width: float) -> tuple[float, list[str]]:
    """A column heading that fits ``width`` mm: its size and lines.

    Lines break at spaces; when a word alone is wider than the column, the
    heading shrinks (by quarter points, down to :data:`HEAD_SIZE_MIN`) until every
    word fits, and only a word still too wide at the smallest size is broken.
    No line is ever wider than the column, in any language."""
    size = HEAD_SIZE
    words = text.split(" ")
    while size > HEAD_SIZE_MIN and any(
        text_width_mm(word, font="bold", size=size) > width for word in words
    ):
        size = max(HEAD_SIZE_MIN, size - HEAD_SIZE_STEP)
    return size, text_wrapped(text, width=width, font="bold", size=size)


def heading_room(column: Column) -> float:
    """The width a column's heading may use: the column less its padding on both sides."""
    return max(column.w - 2 * column.pad, 1.0)


def _table_head(columns: Sequence[Column], headings: Sequence[str]) -> Block:
    """The row of column headings, bold, on a grey shade, each fitted to its column
    (:func:`heading_fitted`) and set on the row's last line."""
    fitted = [
        heading_fitted(h, width=heading_room(c)) for c, h in zip(columns, headings, strict=True)
    ]
    height = max(len(lines) * _line_h(size) for size, lines in fitted) + 2.0
    left, right = columns[0].x, columns[-1].x + columns[-1].w
    marks: list[Mark] = [Shade(left, 0, right - left, height, GREY_HEAD)]
    for column, (size, text) in zip(columns, fitted, strict=True):
        for k, line in enumerate(text):
            top = height - 1.0 - (len(text) - k) * _line_h(size)
            x = (
                column.x + column.pad
                if column.align == "left"
                else column.x + column.w - column.pad
            )
            marks.append(Text(x, _baseline(top, size), line, "bold", size, 0.0, column.align))
    marks.append(Rule(left, height, right, height, 0.4, 0.0))
    return Block(height, marks)


def _table_row(
    columns: Sequence[Column], cells: Sequence[str | Runs], *, grey: float = 0.0
) -> Block:
    size = CELL_SIZE
    placed: list[list[str] | Runs] = [
        cell
        if isinstance(cell, tuple)
        else text_wrapped(cell, width=max(c.w - 2 * c.pad, 1), size=size)
        for c, cell in zip(columns, cells, strict=True)
    ]
    lines = max((len(p) for p in placed if isinstance(p, list)), default=1)
    height = lines * _line_h(size) + 2 * CELL_PAD_Y
    marks: list[Mark] = []
    for column, cell in zip(columns, placed, strict=True):
        if isinstance(cell, tuple):  # runs: from the column's left edge, no padding
            x = column.x
            for text, font in cell:
                if text.strip():
                    marks.append(Text(x, _baseline(CELL_PAD_Y, size), text, font, size, grey))
                x += len(text) * MONO_CHAR_MM
            continue
        x = column.x + column.pad if column.align == "left" else column.x + column.w - column.pad
        for k, line in enumerate(cell):
            top = CELL_PAD_Y + k * _line_h(size)
            marks.append(Text(x, _baseline(top, size), line, "sans", size, grey, column.align))
    left, right = columns[0].x, columns[-1].x + columns[-1].w
    marks.append(Rule(left, height, right, height, 0.2, GREY_RULE))
    return Block(height, marks)


def table_blocks(
    columns: Sequence[Column],
    headings: Sequence[str],
    rows: Sequence[tuple[Sequence[str | Runs], float]],
    *,
    empty: str = "",
) -> list[Block]:
    """A table: its head, then a block per row (``(cells, grey)``); the head repeats on
    every page the rows continue on. No rows: one row saying ``empty``."""
    head = _table_head(columns, headings)
    head.keep_with_next = True
    if not rows:
        whole = Column(columns[0].x, columns[-1].x + columns[-1].w - columns[0].x)
        return [head, _table_row([whole], [empty])]
    blocks = [head]
    for cells, grey in rows:
        row = _table_row(columns, cells, grey=grey)
        row.head = head
        blocks.append(row)
    return blocks


RANK_MM, RANK_MM_MAX, PLAYER_MM, STAGE_MM_MAX = 10.0, 18.0, 52.0, 30.0
PLAYER_MM_MIN, CLUB_MM_MIN = 36.0, 24.0


def rank_column_mm(heading: str) -> float:
    """The rank column's width: room for its heading's longest word at full size
    ("Placering", "Platzierung"), from :data:`RANK_MM` up to :data:`RANK_MM_MAX`."""
    widest = max(text_width_mm(word, font="bold", size=HEAD_SIZE) for word in heading.split(" "))
    return round(min(RANK_MM_MAX, max(RANK_MM, widest + 2 * CELL_PAD_X + 0.2)), 2)


def stage_column_mm(heading: str, stages: Sequence[str]) -> float:
    """The stage column's width: its heading's longest word and the widest stage
    name, up to :data:`STAGE_MM_MAX` (a longer name wraps)."""
    widest = max(
        [text_width_mm(word, font="bold", size=HEAD_SIZE) for word in heading.split(" ")]
        + [text_width_mm(stage, size=CELL_SIZE) for stage in stages]
    )
    return round(min(STAGE_MM_MAX, widest + 2 * CELL_PAD_X + 0.2), 2)


def standings_columns_mm(
    *, paper: str, numbers_mm: Sequence[float], rank_mm: float = RANK_MM, stage_mm: float = 0.0
) -> list[Column]:
    """Rank, player, the stage that placed the player (when ``stage_mm``), club
    (what is left), then one column per number."""
    x0, width = MARGIN_SIDE, content_width(paper)
    numbers_w = sum(numbers_mm)
    # The club keeps CLUB_MM_MIN where it can, taken from the player's column.
    left = width - rank_mm - stage_mm - numbers_w
    player_mm = max(PLAYER_MM_MIN, min(PLAYER_MM, left - CLUB_MM_MIN))
    columns = [Column(x0, rank_mm, "right"), Column(x0 + rank_mm, player_mm)]
    club_x = x0 + rank_mm + player_mm
    if stage_mm:
        columns.append(Column(club_x, stage_mm))
        club_x += stage_mm
    columns.append(Column(club_x, x0 + width - numbers_w - club_x))
    x = x0 + width - numbers_w
    for w in numbers_mm:
        columns.append(Column(x, w, "right", pad=0.8))
        x += w
    return columns


def standings_blocks(
    lines: Sequence[StandingsLine],
    *,
    paper: str,
    headings: Sequence[str],
    numbers_mm: Sequence[float],
    withdrawn: str,
    empty: str,
    stage: str = "",
) -> list[Block]:
    """The standings table: rank, name (``withdrawn`` after it when so), club, numbers;
    with a ``stage`` heading (given after the club's), each line's stage after the name.

    The numbers of a line are one run of monospaced text across the number
    columns, the ranking's first and bold (its headings sit over them)."""
    stage_mm = stage_column_mm(stage, [line.stage for line in lines]) if stage else 0.0
    columns = standings_columns_mm(
        paper=paper,
        numbers_mm=numbers_mm,
        rank_mm=rank_column_mm(headings[0]),
        stage_mm=stage_mm,
    )
    fixed = 4 if stage else 3  # rank, player, [stage,] club
    if stage:
        headings = [*headings[:2], stage, *headings[2:]]
    numbers = Column(columns[fixed].x, sum(numbers_mm))
    table = [*columns[:fixed], numbers]
    rows: list[tuple[Sequence[str | Runs], float]] = [
        (
            [
                str(line.rank),
                f"{line.name} ({withdrawn})" if line.withdrawn else line.name,
                *([line.stage] if stage else []),
                line.club,
                ((line.lead, "mono-bold"), (line.numbers, "mono")),
            ],
            GREY_WITHDRAWN if line.withdrawn else 0.0,
        )
        for line in lines
    ]
    head = _table_head(columns, headings)
    head.keep_with_next = True
    if not rows:
        return [head, _table_row([Column(table[0].x, content_width(paper))], [empty])]
    blocks = [head]
    for cells, grey in rows:
        row = _table_row(table, cells, grey=grey)
        row.head = head
        blocks.append(row)
    return blocks


@dataclass(frozen=True)
class ReportWords:
    """The report's words for one round's matches, translated by the caller."""

    table: str  # "Table %(table)s"
    games: dict[int, str]  # games played -> "· 4 games" / "· not played"
    none: str  # "No tables in this round."


def _match_box(x: float, match_table: int, games: int, players: Sequence[tuple[str, str, int]],
               words: ReportWords) -> tuple[float, list[Mark]]:  # fmt: skip
    title = words.table % {"table": match_table}
    marks: list[Mark] = [Text(x, _baseline(0, 9), title, "bold", 9)]
    after = x + text_width_mm(title + " ", font="bold", size=9)
    marks.append(Text(after, _baseline(0.35, 7.5), words.games[games], "sans", 7.5, 0.333))
    y = _line_h(9)
    marks.append(Rule(x, y, x + MATCH_W, y, 0.3, 0.0))
    y += 0.5
    size = 8.0
    for name, score, wins in players:
        lines = text_wrapped(name, width=26.5, size=size)
        for k, line in enumerate(lines):
            marks.append(Text(x, _baseline(y + k * _line_h(size), size), line, "sans", size))
        if games:
            marks.append(Text(x + 37, _baseline(y, size), score, "bold", size, 0.0, "right"))
            marks.append(Text(x + 43, _baseline(y + 0.3, 7), f"({wins})", "sans", 7, 0.333,
                              "right"))  # fmt: skip
        y += len(lines) * _line_h(size)
    return y, marks


def rounds_blocks(
    rounds: Sequence[RoundResults],
    *,
    paper: str,
    round_headings: Sequence[str],
    words: ReportWords,
) -> list[Block]:
    """Each round's heading, then its match boxes, as many to a line as the page takes."""
    per_line = max(1, int((content_width(paper) + MATCH_GAP) // (MATCH_W + MATCH_GAP)))
    blocks: list[Block] = []
    for round_, heading in zip(rounds, round_headings, strict=True):
        blocks.append(paragraph(heading, paper=paper, size=11, font="bold", before=4, after=1.5,
                                keep_with_next=True))  # fmt: skip
        if not round_.matches:
            blocks.append(paragraph(words.none, paper=paper, size=9))
        for start in range(0, len(round_.matches), per_line):
            marks: list[Mark] = []
            height = 0.0
            for k, match in enumerate(round_.matches[start : start + per_line]):
                x = MARGIN_SIDE + k * (MATCH_W + MATCH_GAP)
                h, box = _match_box(x, match.table, match.games, match.players, words)
                marks.extend(box)
                height = max(height, h)
            blocks.append(Block(height + MATCH_ROW_GAP, marks))
    return blocks


def adjustments_blocks(
    adjustments: Sequence[AdjustmentLine], *, paper: str, headings: Sequence[str]
) -> list[Block]:
    """The adjustments table: player, round, kind, points, reason."""
    x0, width = MARGIN_SIDE, content_width(paper)
    columns = [
        Column(x0, 56.0),
        Column(x0 + 56, 12.0, "right"),
        Column(x0 + 68, 22.0),
        Column(x0 + 90, 22.0, "right"),  # -999999.99, the bound, on one line
        Column(x0 + 112, width - 112),
    ]
    rows: list[tuple[Sequence[str | Runs], float]] = [
        (
            [a.player, str(a.round) if a.round else "–", a.kind, a.points, a.reason],
            0.0,
        )
        for a in adjustments
    ]
    return table_blocks(columns, headings, rows)

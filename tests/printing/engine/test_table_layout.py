"""The standings and report laid out in Python and drawn as PDF: wrapping, columns,
pagination with the table's head repeated, and the drawn file read back with pypdf
(the words, their fonts embedded as subsets). No database, no WeasyPrint."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from printing.data import MatchResult, RoundResults, StandingsLine
from printing.drawn import Group, Text, drawn_pdf, text_wrapped
from printing.fonts import text_width_mm
from printing.layout import NUMBER_COLUMNS, PAPER_MM, number_columns_mm
from printing.table_layout import (
    HEAD_SIZE,
    HEAD_SIZE_MIN,
    MARGIN_BOTTOM,
    MARGIN_SIDE,
    MARGIN_TOP,
    Block,
    ReportWords,
    blocks_paginated,
    content_width,
    heading_fitted,
    heading_room,
    page_numbers_added,
    rank_column_mm,
    rounds_blocks,
    standings_blocks,
    standings_columns_mm,
)
from tests.printing.engine.pdf import pages_of

HEADINGS = ["Rank", "Player", "Club", "Score", "Games", "Wins", "Rack total", "Table points",
            "Adjustments"]  # fmt: skip


def _lines(count: int) -> list[StandingsLine]:
    return [
        StandingsLine(rank=i, name=f"Åse Ørsted-Müller {i}", club="Club", withdrawn=i == 2,
                      lead=str(100 - i).rjust(8), numbers="     4    2")
        for i in range(1, count + 1)
    ]  # fmt: skip


def _texts(page: list[Group]) -> list[tuple[float, Text]]:
    return [(dy + m.y, m) for dy, marks in page for m in marks if isinstance(m, Text)]


def test_wrapping_breaks_at_spaces_and_never_drops_a_letter():
    text = "Karl-Heinz Østergaard-Bäckström van der Lindqvist"
    lines = text_wrapped(text, width=40, size=8.5)
    assert len(lines) > 1 and " ".join(lines) == text
    assert all(text_width_mm(line, size=8.5) <= 40 for line in lines)
    long = "W" * 40
    assert "".join(text_wrapped(long, width=20, size=8.5)) == long
    assert text_wrapped("Adjustments", width=5, size=7, break_words=False) == ["Adjustments"]


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_standings_columns_fill_the_content_width_numbers_on_the_right(paper):
    numbers = number_columns_mm()
    columns = standings_columns_mm(paper=paper, numbers_mm=numbers)
    assert columns[0].x == MARGIN_SIDE
    assert columns[-1].x + columns[-1].w == pytest.approx(MARGIN_SIDE + content_width(paper))
    assert [c.w for c in columns[3:]] == numbers
    assert all(a.x + a.w == pytest.approx(b.x) for a, b in itertools.pairwise(columns))


def test_pages_hold_what_fits_and_repeat_the_tables_head():
    blocks = standings_blocks(
        _lines(150), paper="A4", headings=HEADINGS, numbers_mm=number_columns_mm(),
        withdrawn="withdrawn", empty="No players",
    )  # fmt: skip
    pages = blocks_paginated(blocks, paper="A4")
    assert len(pages) == 4
    bottom = PAPER_MM["A4"][1] - MARGIN_BOTTOM
    names = []
    for page in pages:
        texts = _texts(page)
        assert min(y for y, _ in texts) >= MARGIN_TOP and max(y for y, _ in texts) <= bottom
        assert [t.text for _, t in texts[:2]] == ["Rank", "Player"]  # the head, on every page
        names += [t.text for _, t in texts if t.text.startswith("Åse")]
    # Every line once, in order; the withdrawn one says so.
    assert names[0] == "Åse Ørsted-Müller 1" and len(names) == 150
    assert names[1] == "Åse Ørsted-Müller 2 (withdrawn)"


def test_a_heading_moves_to_the_next_page_with_what_follows():
    height = PAPER_MM["A4"][1] - MARGIN_TOP - MARGIN_BOTTOM
    blocks = [
        Block(height - 10),
        Block(5, [Text(MARGIN_SIDE, 4, "Heading")], keep_with_next=True),
        Block(8, [Text(MARGIN_SIDE, 4, "Body")]),
        Block(5, [Text(MARGIN_SIDE, 4, "After a break")], break_before=True),
    ]
    pages = page_numbers_added(blocks_paginated(blocks, paper="A4"), paper="A4")
    assert [[t.text for _, t in _texts(p)] for p in pages] == [
        ["1 / 3"], ["Heading", "Body", "2 / 3"], ["After a break", "3 / 3"],
    ]  # fmt: skip


def test_match_boxes_four_to_a_line_on_a4():
    players = [(f"P{i}", "12,50" if i == 1 else "-7", i % 2) for i in range(4)]
    round_ = RoundResults(number=1, stage="", date=None,
                          matches=[MatchResult(table=t, games=4, players=players)
                                   for t in range(1, 10)])  # fmt: skip
    words = ReportWords(table="Table %(table)s", games={4: "· 4 games"}, none="None")
    blocks = rounds_blocks([round_], paper="A4", round_headings=["Round 1"], words=words)
    assert len(blocks) == 1 + 3  # the heading, then lines of 4, 4 and 1 boxes
    texts = [m.text for m in blocks[1].marks if isinstance(m, Text)]
    assert texts.count("· 4 games") == 4 and "12,50" in texts and "-7" in texts


def test_the_drawn_pdf_reads_back_with_its_fonts_embedded():
    pages = [
        [Group(0, [Text(20, 20, "Åse Ørsted-Müller", size=12),
                   Text(190, 30, "-19.50", font="mono-bold", size=8.5, align="right")])],
        [Group(10, [Text(20, 20, "Bjørn Bäckström *", font="bold")])],
    ]  # fmt: skip
    pdf = drawn_pdf(pages=pages, paper_mm=PAPER_MM["Letter"], title="Standings", language="da")
    first, second = pages_of(pdf)
    assert first.extract_text().split("\n") == ["Åse Ørsted-Müller", "-19.50"]
    assert second.extract_text() == "Bjørn Bäckström *"
    assert float(first.mediabox.width) == pytest.approx(612, abs=1)
    fonts = set(re.findall(rb"/BaseFont /[A-Z]{6}\+(\S+?) ", pdf))
    assert fonts == {b"DejaVuSans", b"DejaVuSansMono-Bold", b"DejaVuSans-Bold"}
    assert len(pdf) < 40_000  # subsets, not the whole fonts (~2 MB)


def _heading_extents(block: Block) -> list[tuple[float, float, float]]:
    """Each heading line of a table head as (baseline, left, right), in mm."""
    out = []
    for mark in block.marks:
        if isinstance(mark, Text):
            width = text_width_mm(mark.text, font=mark.font, size=mark.size)
            left = mark.x if mark.align == "left" else mark.x - width
            out.append((mark.y, left, left + width))
    return out


@pytest.mark.parametrize("language", ["en", "da", "de", "nb", "nl", "sv"])
@pytest.mark.parametrize("lead", ["score", "average", "table_points"])
def test_no_heading_is_wider_than_its_column_in_any_language(language, lead):
    """The standings' headings in every language, each column's heading inside it:
    "Sejre", "Point tilbage på brikholderne" and "Bordpoint" side by side no more."""
    from django.utils import translation

    from tournaments.standings.ranking import COLUMN_LABELS

    names = [lead, *(name for name, _width in NUMBER_COLUMNS if name != lead)]
    with translation.override(language):
        headings = [
            translation.gettext("Rank"),
            translation.gettext("Player"),
            translation.gettext("Club"),
            *(translation.gettext(COLUMN_LABELS[name]) for name in names),
        ]
    numbers = number_columns_mm(names)
    head = standings_blocks(_lines(1), paper="A4", headings=headings, numbers_mm=numbers,
                            withdrawn="", empty="")[0]  # fmt: skip
    columns = standings_columns_mm(paper="A4", numbers_mm=numbers,
                                   rank_mm=rank_column_mm(headings[0]))  # fmt: skip
    texts = iter(_heading_extents(head))
    for column, heading in zip(columns, headings, strict=True):
        size, lines = heading_fitted(heading, width=heading_room(column))
        assert HEAD_SIZE_MIN <= size <= HEAD_SIZE
        assert " ".join(lines).replace(" ", "") == heading.replace(" ", "")  # no letter lost
        for _line in lines:
            _y, left, right = next(texts)
            assert column.x < left and right < column.x + column.w, (heading, column)


@given(
    text=st.text(alphabet="abcdefghijklmnopqrstuvwxyzæøåäöü ", min_size=1, max_size=60),
    width=st.floats(min_value=3, max_value=60),
)
def test_a_fitted_heading_never_overflows(text, width):
    size, lines = heading_fitted(text, width=width)
    assert HEAD_SIZE_MIN <= size <= HEAD_SIZE
    assert all(text_width_mm(line, font="bold", size=size) <= width for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")

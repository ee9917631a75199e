"""A sheet's geometry, grid picture, CSS and name sizes: plain functions, no PDF."""

from __future__ import annotations

import pytest

from printing.fonts import name_fit, text_width_mm
from printing.layout import (
    MARGIN_MM,
    NUMBER_COLUMNS,
    PAPER_MM,
    grid_svg,
    layout_css,
    number_columns_mm,
    sheet_layout,
)


@pytest.mark.parametrize("paper", list(PAPER_MM))
@pytest.mark.parametrize(("players", "games"), [(2, 1), (3, 12), (4, 30)])
def test_a_sheet_fits_its_page_and_its_columns_fill_the_width(paper, players, games):
    lay = sheet_layout(paper=paper, players=players, games=games)
    page_w, page_h = PAPER_MM[paper]
    assert lay.width == page_w - 2 * MARGIN_MM and lay.height == page_h - 2 * MARGIN_MM
    # (Rows are rounded to 0.01 mm: the last may overshoot by a hair, into the margin.)
    assert lay.rules.y + lay.rules.h <= lay.height + 0.01 * (games + 1)
    assert 0 < lay.row_h <= 12
    assert len(lay.groups) == len(lay.cols) == len(lay.signatures) == players
    last = lay.groups[-1]
    assert last.x + last.w == pytest.approx(lay.width)
    for group, (rack, jokers, score) in zip(lay.groups, lay.cols, strict=True):
        assert rack.x == group.x and score.x + score.w == pytest.approx(group.x + group.w)
        assert jokers.w < rack.w


def test_grid_picture_marks_each_games_starter_and_css_places_every_seat():
    svg = grid_svg(paper="A4", players=3, games=5)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("z") >= 5  # a closed triangle per game row
    css = layout_css(sheet_layout(paper="A4", players=3, games=5))
    for seat in (1, 2, 3):
        assert f".A4-3x5.p{seat}{{" in css and f".A4-3x5.g{seat}{{" in css
    assert ".A4-3x4" not in css


def test_long_names_get_smaller_size_classes():
    width = sheet_layout(paper="A4", players=4, games=4).groups[0].w
    assert name_fit("Ida", width=width) == ""
    assert name_fit("Jürgen Bäckström", width=width) == "f1"
    assert name_fit("Frederik Østergaard", width=width) == "f2"
    assert name_fit("W" * 40, width=width) == "f3"
    assert text_width_mm("WW", size=10) > text_width_mm("ii", size=10) > 0


def test_number_columns_have_a_width_each():
    widths = number_columns_mm()
    assert len(widths) == len(NUMBER_COLUMNS) and all(w > 0 for w in widths)

"""The season table's PDF keeps its rank heading whole in every language
(Danish "Placering" and Norwegian "Plassering" were broken mid-word in a
10 mm column)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.printing.engine.pdf import pages_of
from tests.tournaments.season_support import season_played
from tournaments.documents.season import season_document
from tournaments.selectors.seasons import season_view

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "word"), [("da", "Placering"), ("nb", "Plassering")])
def test_the_rank_heading_is_one_word(language: str, word: str) -> None:
    view = season_view(season=season_played().season)
    with translation.override(language):
        text = "".join(page.extract_text() for page in pages_of(season_document(view=view)))
    assert word in text.split()


@pytest.mark.parametrize(("language", "mark"), [("da", ","), ("sv", ","), ("en", ".")])
def test_the_points_are_written_in_the_pages_language(language: str, mark: str) -> None:
    view = season_view(season=season_played().season)
    with translation.override(language):
        text = "".join(page.extract_text() for page in pages_of(season_document(view=view)))
    # Rank points have cents (1000 × 6 / 7 is 857.14).
    cents = [r.points for r in view.table.ranked if r.points != r.points.to_integral_value()]
    assert cents
    for points in cents:
        written = f"{points:.2f}"
        assert written.replace(".", mark) in text
        assert written.replace(".", "," if mark == "." else ".") not in text

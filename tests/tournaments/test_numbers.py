"""Numbers as the pages and the prints write them (``tournaments.numbers``): no database."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import translation

from tournaments.numbers import number_text

COMMA = ["da", "sv", "nb", "de", "nl"]


@pytest.mark.parametrize("language", COMMA)
def test_the_nordic_german_and_dutch_pages_write_a_decimal_comma(language: str) -> None:
    with translation.override(language):
        assert number_text(Decimal("-3.50")) == "-3,50"
        assert number_text(Decimal("22.5"), signed=True) == "+22,50"
        assert number_text(1234.5) == "1234,50"  # no grouping: a score is read whole
        assert number_text(25.0, places=2) == "25,00"


def test_english_writes_a_point() -> None:
    with translation.override("en"):
        assert number_text(Decimal("-3.50")) == "-3.50"
        assert number_text(Decimal("22.5"), signed=True) == "+22.50"
        assert number_text(25.0, places=2) == "25.00"


@pytest.mark.parametrize("language", ["en", *COMMA])
def test_whole_numbers_have_no_cents_and_zero_no_sign(language: str) -> None:
    with translation.override(language):
        assert number_text(Decimal("24.00")) == "24"
        assert number_text(-7) == "-7"
        assert number_text(Decimal(0), signed=True) == "0"
        assert number_text(5, signed=True) == "+5"


def test_every_language_of_the_site_is_covered() -> None:
    assert {code for code, _name in settings.LANGUAGES} == {"en", *COMMA}


@pytest.mark.parametrize("language", ["en", *COMMA])
def test_cents_when_some_are_written_as_floatformat_writes_them(language: str) -> None:
    from django.template.defaultfilters import floatformat
    from hypothesis import given
    from hypothesis import settings as hypothesis_settings
    from hypothesis import strategies as st

    numbers = st.one_of(
        st.decimals(min_value=-100000, max_value=100000, places=2, allow_nan=False),
        st.decimals(min_value=-1000, max_value=1000, places=4, allow_nan=False),
        st.integers(min_value=-100000, max_value=100000),
        st.floats(min_value=-10000, max_value=10000, allow_nan=False).map(lambda f: round(f, 3)),
    )

    @hypothesis_settings(max_examples=300, deadline=None)
    @given(numbers)
    def same(value: Decimal | int | float) -> None:
        with translation.override(language):
            assert number_text(value) == str(floatformat(value, -2))

    same()

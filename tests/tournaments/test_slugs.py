"""The slug a name gives (``tournaments.slugs``): no database."""

from __future__ import annotations

import pytest
from django.core.validators import validate_slug
from hypothesis import given
from hypothesis import strategies as st

from tournaments.slugs import SLUG_BASE_MAX, name_slug


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Nørrebro Rummikub Club", "norrebro-rummikub-club"),
        ("Åbent Mesterskab", "abent-mesterskab"),
        ("Århus RK", "arhus-rk"),
        ("Aarhus RK", "aarhus-rk"),
        ("Straße & Söhne", "strasse-sohne"),
        ("Ærø Brætspil", "aero-braetspil"),
        ("Malmö Spelklubb", "malmo-spelklubb"),
        ("Tromsø", "tromso"),
        ("Club   de l'Été", "club-de-lete"),
    ],
)
def test_a_name_gives_its_letters_without_their_accents(name: str, slug: str) -> None:
    assert name_slug(name) == slug


def test_a_name_with_nothing_left_gives_the_fallback() -> None:
    assert name_slug("!!!", "club") == "club"
    assert name_slug("", "tournament") == "tournament"
    assert name_slug("—") == ""


@given(st.text(alphabet=st.sampled_from(list("aøåæäöüßÅØÆÖÜé -!'1")), max_size=100))
def test_a_slug_is_a_valid_ascii_address_of_bounded_length(name: str) -> None:
    slug = name_slug(name, "club")
    validate_slug(slug)
    assert slug.isascii() and slug == slug.lower() and 0 < len(slug) <= SLUG_BASE_MAX

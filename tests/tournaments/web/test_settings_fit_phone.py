"""The tournament form on a phone: every dropdown's choices fit a 390 px screen's
select in every language (the explanation lives in the help text), and the
category field says what a category is."""

from __future__ import annotations

import pytest
from django import forms
from django.utils import translation

from printing.fonts import text_width_mm
from tournaments.web.settings_forms import TournamentForm

pytestmark = pytest.mark.django_db

# A 390 px screen's select: 299 px of text at 16 px (12 pt), measured with DejaVu
# Sans, which is wider than the phones' own fonts.
ROOM_MM = 299 / 96 * 25.4
LANGUAGES = ["en", "da", "de", "nb", "nl", "sv"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_choice_fits_a_phones_select(language: str) -> None:
    with translation.override(language):
        form = TournamentForm()
        too_wide = [
            (name, str(label))
            for name, field in form.fields.items()
            if isinstance(field, forms.ChoiceField)
            and not isinstance(field.widget, forms.HiddenInput)
            for _value, label in field.choices
            if text_width_mm(str(label), size=12) > ROOM_MM
        ]
    assert too_wide == []


@pytest.mark.parametrize(
    ("date", "message"),
    [
        ("30.02.2026", "Enter the date as YYYY-MM-DD."),
        ("2026-02-30", "“2026-02-30” is not a date in the calendar."),
    ],
)
def test_a_bad_date_is_refused_in_the_apis_words(date: str, message: str) -> None:
    """The web form and the API say the same of a bad date."""
    from tests.factories import UserFactory
    from tests.tournaments.api.conftest import client_as

    api = client_as(UserFactory())
    answer = api.post("/api/v1/tournaments/", {"name": "Cup", "date": date}, format="json")
    assert answer.json() == {"date": [message]}
    form = TournamentForm({"name": "Cup", "date": date})
    assert form.errors.get("date") == [message]

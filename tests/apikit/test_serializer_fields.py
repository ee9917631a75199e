"""The API's shared fields: a date the calendar does not have is said to be
one (not "the wrong format"), in the client's language."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.api.conftest import client_as
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("date", "language", "message"),
    [
        ("2026-02-30", "en", "“2026-02-30” is not a date in the calendar."),
        ("2025-02-29", "en", "“2025-02-29” is not a date in the calendar."),
        ("2026-13-01", "en", "“2026-13-01” is not a date in the calendar."),
        ("2026-02-30", "da", "“2026-02-30” er ikke en dato i kalenderen."),
        ("2026-02-30", "de", "“2026-02-30” ist kein Datum im Kalender."),
        (
            "30.02.2026",
            "en",
            "Enter the date as YYYY-MM-DD.",
        ),
    ],
)
def test_a_date_not_in_the_calendar_is_said_to_be_none(date, language, message):
    api = client_as(UserFactory())
    answer = api.post(
        "/api/v1/tournaments/",
        {"name": "Cup", "date": date},
        format="json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 400
    assert answer.json() == {"date": [message]}
    assert not Tournament.objects.exists()


def test_a_real_date_and_a_leap_day_are_taken():
    api = client_as(UserFactory())
    for date in ("2026-02-28", "2028-02-29"):
        answer = api.post("/api/v1/tournaments/", {"name": date, "date": date}, format="json")
        assert answer.status_code == 201 and answer.json()["date"] == date


@pytest.mark.parametrize(
    ("sent", "ok"),
    [("x" * 10, True), (" " + "x" * 10, False), ("a" + " " * 9 + "b ", False), ("  ab  ", True)],
)
def test_a_strict_texts_limit_is_the_text_as_sent(sent: str, ok: bool) -> None:
    from rest_framework.exceptions import ValidationError

    from apikit.serializer_fields import StrictCharField

    field = StrictCharField(max_length=10)
    if ok:
        assert field.run_validation(sent) == sent.strip()
    else:
        with pytest.raises(ValidationError):
            field.run_validation(sent)

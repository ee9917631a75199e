"""Accounts (tournaments.web.accounts): sign-up, password change and reset by
email; a signed-up account does what an organiser does, without staff."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.factories import UserFactory
from tests.tournaments.web.test_settings import form_post
from tournaments.models import Club, Entry, Player, Round, Tournament

pytestmark = pytest.mark.django_db

User = get_user_model()
SIGNUP = "/accounts/signup/"
GOOD = "tile-rack-joker-77"


def signup_post(**changes: str) -> dict[str, str]:
    return {
        "username": "karen",
        "email": "karen@example.org",
        "password1": GOOD,
        "password2": GOOD,
        **changes,
    }


def test_the_sign_up_page_is_linked_from_the_header_and_the_login_page(client: Client) -> None:
    home = client.get("/").content.decode()
    assert f'href="{SIGNUP}"' in home
    login = client.get("/accounts/login/").content.decode()
    assert f'href="{SIGNUP}"' in login and 'href="/accounts/password_reset/"' in login
    page = client.get(SIGNUP)
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="username"' in text and 'name="email"' in text
    assert 'name="password1"' in text and 'name="password2"' in text


def test_sign_up_logs_in_and_lands_where_tournaments_and_clubs_are_made(client: Client) -> None:
    response = client.post(SIGNUP, signup_post())
    assert response.status_code == 302 and response["Location"] == "/"
    user = User.objects.get(username="karen")
    assert user.email == "karen@example.org" and user.check_password(GOOD)
    assert not user.is_staff and not user.is_superuser
    home = client.get("/").content.decode()
    assert "Welcome, karen: your account is ready." in home
    assert 'href="/t/new/"' in home and "Log out (karen)" in home
    assert 'href="/accounts/password_change/"' in home and f'href="{SIGNUP}"' not in home


def test_a_signed_up_user_runs_a_tournament_without_staff(client: Client) -> None:
    """Sign up, log out, log in, then what an organiser does: create a
    tournament, enter players, seat a round, create a club."""
    client.post(SIGNUP, signup_post(email=""))
    client.post("/accounts/logout/")
    response = client.post("/accounts/login/", {"username": "karen", "password": GOOD})
    assert response.status_code == 302
    response = client.post("/t/new/", form_post(name="Karen's Cup", kind="tournament"))
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Karen's Cup")
    assert tournament.owner.username == "karen"
    desk = f"/t/{tournament.slug}/organise/"
    assert client.get(desk).status_code == 200
    for name in ("Anna", "Bo", "Carl", "Dora"):
        assert client.post(f"{desk}players/new/", {"name": name}).status_code == 302
    assert Entry.objects.filter(tournament=tournament).count() == 4
    assert client.post(f"{desk}seat/", {}).status_code == 302
    assert Round.objects.filter(tournament=tournament).count() == 1
    response = client.post(
        "/api/v1/clubs/", {"name": "Karen's Club"}, content_type="application/json"
    )
    assert response.status_code == 201
    assert Club.objects.get(name="Karen's Club").created_by.username == "karen"
    assert Player.objects.filter(created_by__username="karen").count() == 4


def test_a_page_asked_for_is_where_sign_up_lands(client: Client) -> None:
    page = client.get(SIGNUP, {"next": "/t/new/"}).content.decode()
    assert 'name="next" value="/t/new/"' in page
    response = client.post(SIGNUP, signup_post(next="/t/new/"))
    assert response["Location"] == "/t/new/"


def test_a_page_elsewhere_is_not(client: Client) -> None:
    response = client.post(SIGNUP, signup_post(next="https://evil.example/"))
    assert response["Location"] == "/"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"username": "KAREN"}, "username", "A user with that username already exists."),
        ({"username": "Karen"}, "username", "A user with that username already exists."),
        ({"username": "k" * 151}, "username", "Ensure this value has at most 150 characters"),
        ({"username": "karen smith"}, "username", "Enter a valid username."),
        ({"username": ""}, "username", "This field is required."),
        ({"email": "not-an-address"}, "email", "Enter a valid email address."),
        ({"email": "a" * 250 + "@example.org"}, "email", "at most 254 characters"),
        ({"password1": "short", "password2": "short"}, "password2", "This password is too short."),
        ({"password1": "password123", "password2": "password123"}, "password2", "too common"),
        ({"password1": "4815162342", "password2": "4815162342"}, "password2", "entirely numeric"),
        ({"password1": "annasmith1", "password2": "annasmith1"}, "password2", "too similar"),
        ({"password2": GOOD + "x"}, "password2", "The two password fields didn’t match."),
        ({"password1": "Ab1!" * 300, "password2": "Ab1!" * 300}, "password1", "at most 1024"),
    ],
)
def test_bad_input_is_refused_at_its_field_and_nothing_made(
    client: Client, changes: dict[str, str], field: str, message: str
) -> None:
    UserFactory(username="karen")
    data = signup_post(username="annasmith") | changes
    response = client.post(SIGNUP, data)
    assert response.status_code == 400
    errors = " ".join(response.context["form"].errors.get(field, []))
    assert message in errors, response.context["form"].errors
    assert message in html.unescape(response.content.decode())
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


def test_a_signed_in_user_is_sent_home(client: Client) -> None:
    client.force_login(UserFactory())
    assert client.get(SIGNUP)["Location"] == "/"


def test_sign_up_off_answers_404_and_nothing_links_it(client: Client, settings: Any) -> None:
    settings.RACKSCORE_SIGNUP = False
    assert client.get(SIGNUP).status_code == 404
    assert client.post(SIGNUP, signup_post()).status_code == 404
    assert client.get("/da/accounts/signup/").status_code == 404
    assert not User.objects.exists()
    for page in ("/", "/accounts/login/"):
        assert "/accounts/signup/" not in client.get(page).content.decode()


def test_sign_up_posts_are_limited_per_address(settings: Any) -> None:
    settings.RACKSCORE_ACCOUNT_POSTS_PER_HOUR = 3
    here, there = Client(REMOTE_ADDR="10.0.0.1"), Client(REMOTE_ADDR="10.0.0.2")
    for _ in range(3):
        assert here.post(SIGNUP, signup_post(password2="no")).status_code == 400
    refused = here.post(SIGNUP, signup_post())
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert "Your address has sent this form too often." in refused.content.decode()
    assert not User.objects.exists()
    assert there.post(SIGNUP, signup_post()).status_code == 302


# ----------------------------------------------------------------------------- password change


def test_password_change(client: Client) -> None:
    user = UserFactory(username="karen")
    assert client.get("/accounts/password_change/")["Location"].startswith("/accounts/login/")
    client.force_login(user)
    page = client.get("/accounts/password_change/").content.decode()
    assert 'name="old_password"' in page and 'name="new_password2"' in page
    wrong = client.post(
        "/accounts/password_change/",
        {"old_password": "nope", "new_password1": GOOD, "new_password2": GOOD},
    )
    assert wrong.status_code == 200 and "old_password" in wrong.context["form"].errors
    weak = client.post(
        "/accounts/password_change/",
        {
            "old_password": "secret-pass-123",
            "new_password1": "12345678",
            "new_password2": "12345678",
        },
    )
    assert "new_password2" in weak.context["form"].errors
    done = client.post(
        "/accounts/password_change/",
        {"old_password": "secret-pass-123", "new_password1": GOOD, "new_password2": GOOD},
        follow=True,
    )
    assert done.redirect_chain[-1][0] == "/accounts/password_change/done/"
    assert "Your password is changed." in done.content.decode()
    user.refresh_from_db()
    assert user.check_password(GOOD)
    # Still logged in: the session's hash was updated.
    assert client.get("/t/new/").status_code == 200


# ----------------------------------------------------------------------------- password reset


def reset_link(body: str) -> str:
    found = re.search(r"https?://testserver(/\S*/accounts/reset/\S+/|/accounts/reset/\S+/)", body)
    assert found, body
    return found.group(1)


def test_password_reset_by_email(client: Client) -> None:
    user = UserFactory(username="karen", email="Karen@Example.org")
    page = client.get("/accounts/password_reset/")
    assert page.status_code == 200 and 'name="email"' in page.content.decode()
    response = client.post("/accounts/password_reset/", {"email": "karen@example.org"})
    assert response["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["Karen@Example.org"]
    assert "karen" in message.body and "Choose a new password" in message.subject
    link = reset_link(message.body)
    form = client.get(link)
    assert form.status_code == 302  # Django moves the token out of the address
    set_password = form["Location"]
    assert "set-password" in set_password
    assert 'name="new_password1"' in client.get(set_password).content.decode()
    done = client.post(set_password, {"new_password1": GOOD, "new_password2": GOOD})
    assert done["Location"] == "/accounts/reset/done/"
    user.refresh_from_db()
    assert user.check_password(GOOD)
    assert "Log in with it." in client.get("/accounts/reset/done/").content.decode()
    # The link works once.
    again = Client().get(link, follow=True).content.decode()
    assert "This link does not work any more" in again


def test_a_reset_for_an_unknown_address_tells_nothing_and_sends_nothing(client: Client) -> None:
    UserFactory(username="karen", email="karen@example.org")
    response = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert response["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []


def test_a_reset_asked_in_danish_is_written_and_linked_in_danish(client: Client) -> None:
    UserFactory(username="karen", email="karen@example.org")
    response = client.post("/da/accounts/password_reset/", {"email": "karen@example.org"})
    assert response["Location"] == "/da/accounts/password_reset/done/"
    assert "/da/accounts/reset/" in mail.outbox[0].body


def test_reset_posts_are_limited_per_address(client: Client, settings: Any) -> None:
    settings.RACKSCORE_ACCOUNT_POSTS_PER_HOUR = 2
    UserFactory(username="karen", email="karen@example.org")
    for _ in range(2):
        client.post("/accounts/password_reset/", {"email": "karen@example.org"})
    assert (
        client.post("/accounts/password_reset/", {"email": "karen@example.org"}).status_code == 429
    )
    assert len(mail.outbox) == 2

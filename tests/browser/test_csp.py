"""The Content-Security-Policy in a browser: the match page, the desk, the
projector, the calculator, the turn timer, the API docs and the admin load
and run with the policy the site sends, and the browser reports no violation.

A violation shows twice: as a ``securitypolicyviolation`` event (collected by
a script Playwright adds before the page's own, which the policy does not
govern) and as a console error."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.browser.conftest import page_sized
from tests.factories import PlayerFactory, tournament_entered
from tournaments.models import Match
from tournaments.services import clock, entries, rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "rummikub-desk"
VIOLATIONS_WATCHED = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__violations.push(event.violatedDirective + " " + (event.blockedURI || "inline"));
});
"""


def _watched(page: Any) -> list[str]:
    """The page's console errors about the policy, as they come."""
    said: list[str] = []
    page.add_init_script(VIOLATIONS_WATCHED)
    page.on(
        "console",
        lambda message: (
            said.append(message.text)
            if "Content Security Policy" in message.text
            or "Content-Security-Policy" in message.text
            else None
        ),
    )
    return said


def _violations(page: Any, said: list[str]) -> list[str]:
    return [*page.evaluate("window.__violations || []"), *said]


@pytest.fixture
def event() -> Match:
    owner = get_user_model().objects.create_user("olga", password=PASSWORD)
    tournament = tournament_entered(players=0, owner=owner, round_minutes=30, slug="csp-cup")
    people = [PlayerFactory(name=f"Player {n}") for n in range(8)]
    entries.entries_add(tournament=tournament, player_ids=[p.pk for p in people])
    round_ = rounds.round_seat_next(tournament=tournament)
    clock.round_clock_start(round_=round_)
    return round_.matches.order_by("table").first()


def test_the_pages_run_under_the_policy_without_a_violation(browser, live_server, event):
    url = live_server.url
    with page_sized(browser, width=390, height=900, csp=True) as phone:
        said = _watched(phone)
        # The match page: the tile picker, the offline queue, the service worker.
        answer = phone.goto(f"{url}/m/{event.token}/")
        assert "script-src 'self'" in answer.headers["content-security-policy"]
        phone.wait_for_load_state("networkidle")
        phone.goto(f"{url}/m/{event.token}/timer/")
        phone.wait_for_load_state("networkidle")
        assert _violations(phone, said) == []
        assert phone.evaluate("document.documentElement.classList.contains('js')")
        phone.click("[data-timer-tap]")
        phone.goto(f"{url}/calculator/")
        phone.wait_for_load_state("networkidle")
        phone.goto(f"{url}/t/csp-cup/tables/")
        phone.fill("input[type=search]", "Player 1")
        assert _violations(phone, said) == []
    with page_sized(browser, width=1280, height=900, csp=True) as desk:
        said = _watched(desk)
        desk.goto(f"{url}/accounts/login/")
        desk.fill("#id_username", "olga")
        desk.fill("#id_password", PASSWORD)
        desk.click("main button[type=submit]")
        desk.wait_for_load_state("networkidle")
        desk.goto(f"{url}/t/csp-cup/organise/")
        desk.wait_for_load_state("networkidle")
        assert _violations(desk, said) == []
        desk.goto(f"{url}/t/csp-cup/screen/")
        desk.wait_for_selector("[data-screen]")
        desk.wait_for_timeout(1500)  # a poll of the screen's state
        assert _violations(desk, said) == []
        desk.goto(f"{url}/t/csp-cup/")
        desk.goto(f"{url}/t/csp-cup/standings/")
        desk.click("th.orderable a >> nth=1")
        desk.wait_for_load_state("networkidle")
        assert _violations(desk, said) == []


def test_the_api_docs_and_the_admin_run_under_their_policy(browser, live_server):
    get_user_model().objects.create_superuser("root", password=PASSWORD)
    url = live_server.url
    with page_sized(browser, width=1280, height=900, csp=True) as page:
        said = _watched(page)
        page.goto(f"{url}/api/v1/docs/")
        page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
        page.goto(f"{url}/api/v1/")
        page.wait_for_load_state("networkidle")
        page.goto(f"{url}/admin/login/")
        page.fill("#id_username", "root")
        page.fill("#id_password", PASSWORD)
        page.click("input[type=submit]")
        page.goto(f"{url}/admin/tournaments/tournament/")
        page.wait_for_load_state("networkidle")
        assert _violations(page, said) == []

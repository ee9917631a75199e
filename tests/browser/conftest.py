"""Browser tests: Playwright's sync API drives Debian's Chromium against
pytest-django's live server."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

# Playwright's sync API runs an event loop in this thread; Django refuses ORM
# calls from a thread with a running loop unless told it is safe here.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not shutil.which(CHROMIUM):
        pytest.skip("Chromium is not installed (scripts/install-system.sh installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@contextmanager
def page_sized(browser: Any, *, width: int, height: int, csp: bool = False) -> Iterator[Any]:
    """A page in a browser context of its own (its own cookies) at that viewport.

    The site's Content-Security-Policy forbids evaluating strings as code, which
    Playwright does for a string ``wait_for_function``: the browser ignores the
    policy unless ``csp`` (test_csp.py holds the pages to it)."""
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=not csp)
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        yield page
    finally:
        context.close()
        # A request the page sent before it closed is answered before the
        # test's database is flushed (which a request still reading it would
        # refuse: "database table is locked").
        with SERVER_TURN:
            pass


def click_to_load(page: Any, selector: str) -> None:
    """Click what submits a form or follows a link, and return once the page
    it leads to has loaded: an assertion counting what the new page holds
    (``locator.count()`` does not wait) must not read a page half parsed, nor
    the one before when the new one has the same address."""
    with page.expect_navigation(wait_until="load"):
        page.click(selector)


# The live server's turn: one request answered at a time (``live_server``).
SERVER_TURN = threading.Lock()


@pytest.fixture(scope="session")
def live_server(live_server: Any) -> Any:
    """pytest-django's live server, answering one request at a time.

    Its request threads share the test's one in-memory SQLite connection, so two
    requests of one page at once (an offline queue sending while the page saves
    its session) would interleave statements on it ("cannot release savepoint -
    SQL statements in progress"), which no real server does. Each answer is
    written out whole under the lock."""
    httpd = live_server.thread.httpd
    app = httpd.get_app()

    def one_at_a_time(
        environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        with SERVER_TURN:
            answer = app(environ, start_response)
            try:
                return [b"".join(answer)]
            finally:
                close = getattr(answer, "close", None)
                if close is not None:
                    close()

    httpd.set_app(one_at_a_time)
    return live_server


@pytest.fixture
def page(browser: Any, live_server: Any) -> Iterator[Any]:
    with page_sized(browser, width=390, height=900) as page:
        yield page

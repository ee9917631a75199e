"""config.security_headers, and the pages it guards: every answer carries its
Content-Security-Policy and Permissions-Policy; no page the site writes runs
an inline script, an inline event handler or an inline style (which the
strict policy would block)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.test import Client

from config.security_headers import policy_for
from tests.factories import UserFactory
from tests.tournaments.web.support import tournament_played
from tournaments.models import Match

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
STRICT = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


class InlineCode(HTMLParser):
    """Collects what a strict policy blocks: inline scripts, ``on…=`` handlers,
    ``javascript:`` links, ``style=`` attributes and ``<style>`` elements."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script" and "src" not in named and named.get("type") != "application/json":
            self.found.append(f"<script> inline at line {self.getpos()[0]}")
        if tag == "style":
            self.found.append(f"<style> at line {self.getpos()[0]}")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"<{tag} {name}=…> at line {self.getpos()[0]}")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"<{tag} {name}=javascript:…> at line {self.getpos()[0]}")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def test_the_scanner_finds_what_the_policy_blocks():
    html = (
        '<script>alert(1)</script><script src="/s.js"></script>'
        '<script type="application/json" id="d">{}</script>'
        '<button onclick="go()">x</button><p style="color:red">y</p><style>p{}</style>'
        '<a href="javascript:go()">z</a>'
    )
    assert len(inline_code(html)) == 5


# Every template a browser is served (print/ goes to the PDF engine, which runs
# no script and reads no header; its error page extends the layout).
TEMPLATES = sorted(
    path
    for path in (ROOT / "templates").rglob("*.html")
    if "print" not in path.relative_to(ROOT / "templates").parts[:1] or path.name == "error.html"
)
INLINE_IN_TEMPLATE = re.compile(
    r"<script\b(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>"
    r"|<style\b|\sstyle\s*=|\son[a-z]+\s*=|javascript:",
    re.IGNORECASE,
)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT / "templates")))
def test_no_template_writes_inline_code(path: Path):
    text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.DOTALL)  # comments
    assert INLINE_IN_TEMPLATE.findall(text) == []


def _pages(match: Match) -> list[str]:
    slug = match.round.tournament.slug
    player = match.seats.first().player_id
    return [
        "/",
        "/calculator/",
        "/timer/",
        "/accounts/login/",
        f"/t/{slug}/",
        f"/da/t/{slug}/",
        f"/t/{slug}/rounds/1/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/standings/?stage=qualifying",
        f"/t/{slug}/screen/",
        f"/t/{slug}/tables/?q=a",
        f"/p/{player}/",
        f"/m/{match.token}/",
        f"/m/{match.token}/timer/",
        "/scoresheet.pdf?players=9",
        "/no/such/page/",
    ]


def _desk_pages(match: Match) -> list[str]:
    slug = match.round.tournament.slug
    return [
        f"/t/{slug}/",
        f"/t/{slug}/organise/",
        f"/t/{slug}/organise/confirm/",
        f"/t/{slug}/organise/audit/",
        f"/t/{slug}/edit/",
        "/t/new/",
        "/t/new/restore/",
    ]


def test_the_main_pages_carry_no_inline_code_and_the_strict_policy(client: Client):
    match = tournament_played(tables=2).round_set.get().matches.first()
    for url in _pages(match):
        response = client.get(url)
        assert response.status_code in (200, 400, 404), url
        assert response["Content-Security-Policy"] == STRICT, url
        assert inline_code(response.content.decode()) == [], url
    client.force_login(match.round.tournament.owner)
    for url in _desk_pages(match):
        response = client.get(url)
        assert response.status_code == 200, url
        assert inline_code(response.content.decode()) == [], url


@pytest.mark.parametrize("template", ["400.html", "413.html", "500.html", "403.html", "404.html"])
def test_the_error_pages_carry_no_inline_code(template, rf):
    request = rf.get("/")
    request.user = UserFactory.build()
    html = render_to_string(template, {"request": request, "user": request.user}, request)
    assert inline_code(html) == []


def test_every_answer_carries_the_permissions_and_referrer_policies(client: Client):
    for url in ("/", "/healthz", "/api/v1/", "/no/such/page/", "/api/v1/nothing/"):
        response = client.get(url)
        assert "Content-Security-Policy" in response, url
        features = response["Permissions-Policy"]
        for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
            assert f"{feature}=()" in features, url
        assert response["Referrer-Policy"] == "same-origin", url


@pytest.mark.parametrize(
    ("path", "styles_inline"),
    [
        ("/", False),
        ("/da/t/x/", False),
        ("/admin/login/", True),
        ("/api/v1/", True),
        ("/api/v1/docs/", True),
        ("/administration/", False),
    ],
)
def test_the_admin_and_the_api_pages_allow_inline_styles_never_scripts(path, styles_inline):
    policy = policy_for(path)
    assert "script-src 'self';" in policy and "'unsafe-eval'" not in policy
    assert ("style-src 'self' 'unsafe-inline'" in policy) == styles_inline
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


def test_the_api_docs_load_their_start_up_script_from_a_file(client: Client):
    html = client.get("/api/v1/docs/").content.decode()
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts and all("src=" in tag for tag in scripts)
    start = re.search(r'<script src="([^"]*script[^"]*)"', html)
    assert start, html
    code = client.get(start.group(1).replace("&amp;", "&"))
    assert code.status_code == 200 and "SwaggerUIBundle" in code.content.decode()


# Checked with headless Chromium (``--enable-logging=stderr`` on a served page):
# it logs "Unrecognized feature" for these, on every answer.
CHROMIUM_UNKNOWN = ("ambient-light-sensor", "bluetooth", "battery", "document-domain", "web-share")


def test_the_permissions_policy_names_only_features_chromium_knows(client):
    header = client.get("/calculator/")["Permissions-Policy"]
    features = [item.split("=", 1)[0] for item in header.split(", ")]
    assert features == [
        "accelerometer", "autoplay", "camera", "display-capture", "geolocation", "gyroscope",
        "hid", "magnetometer", "microphone", "midi", "payment", "serial", "usb",
        "xr-spatial-tracking",
    ]  # fmt: skip
    assert not set(features) & set(CHROMIUM_UNKNOWN)
    assert all(item.endswith("=()") for item in header.split(", "))

"""The docs match the code.

Vocabulary: the *layout* is the tree in ``docs/architecture.md``'s first code
block: one entry a line, indented two spaces a level, a folder ending in
``/``, modules comma-separated, a description after two or more spaces; a
folder's entry may name its modules in its description instead
(``templatetags/  offline.py (...), round_clock.py (...)``). The *pages* are
the routes of the web URL map that answer a GET; the README's page table must
name each one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "scoring", "apikit", "calculator", "printing", "tournaments")


def layout_paths(text: str) -> set[str]:
    """Every path the layout names (folders end in ``/``)."""
    block = text.split("```", 2)[1]
    paths: set[str] = set()
    stack: list[str] = []
    for line in block.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        names, _, description = line.strip().partition("  ")
        if indent % 2:
            continue  # a description's continuation line
        level = indent // 2
        if level > len(stack):
            continue  # a continuation line indented like a deeper entry
        del stack[level:]
        entries = [n.strip() for n in names.split(",")]
        if not all(re.fullmatch(r"[\w.]+/?", e) for e in entries):
            continue
        base = "".join(stack)
        for entry in entries:
            paths.add(base + entry)
        if len(entries) == 1 and entries[0].endswith("/"):
            stack.append(entries[0])
            for named in re.findall(r"([\w]+\.py)\b", description):
                paths.add(base + entries[0] + named)
        elif level < len(stack):
            stack.append("")
    return paths


def code_paths() -> Iterator[str]:
    """Every package and module of the project, migrations and tests aside."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts[:-1]:
                continue
            folder = relative.parent.as_posix() + "/"
            if path.name == "__init__.py":
                yield folder
            elif "commands" not in relative.parts:
                yield relative.as_posix()


def test_the_layout_names_every_package_and_module() -> None:
    named = layout_paths((ROOT / "docs" / "architecture.md").read_text())
    missing = [p for p in code_paths() if p not in named]
    assert not missing, f"docs/architecture.md does not name {missing}"


def test_the_layout_names_nothing_that_is_gone() -> None:
    named = layout_paths((ROOT / "docs" / "architecture.md").read_text())
    gone = [p for p in named if p.split("/")[0] in PACKAGES and not (ROOT / p).exists()]
    assert not gone, f"docs/architecture.md names {gone}, which no longer exist"


def test_the_layout_reader_can_fail() -> None:
    text = "```\ntournaments/\n  selectors/   reads\n    one.py   a\n```"
    assert layout_paths(text) == {
        "tournaments/",
        "tournaments/selectors/",
        "tournaments/selectors/one.py",
    }


def test_the_commands_are_named() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    commands = ROOT / "tournaments" / "management" / "commands"
    for path in commands.glob("*.py"):
        if path.name != "__init__.py":
            assert path.stem in text, f"docs/architecture.md does not name the command {path.stem}"


def _routes(patterns: list[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern)


def readme_form(route: str) -> str:
    """``t/<slug:slug>/rounds/<id:number>/`` as the README writes it: ``/t/<slug>/rounds/<n>/``."""
    route = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "<" + m.group(1) + ">", route)
    route = route.replace("<number>", "<n>").replace("<player_id>", "<id>")
    route = re.sub(r"<(match_id|game_id|event_id|adjustment_id)>", "<id>", route)
    return "/" + route


# Routes that only take a POST (a form's action), or serve a file the pages link.
NOT_PAGES = re.compile(
    r"/(finish|reopen|seat|reseat|swap|start|pause|reset|withdraw|check-in|check-out|category"
    r"|delete|link|correct|mine|entries|players/new|import|import/confirm|state|backup|adjustments)/$"
    r"|/audit/<id>/restore/$|/games/<id>/confirm/$|/withdraw/confirm/$"
    r"|manifest\.webmanifest$|^/sw\.js$|^/i18n/|^/accounts/logout/$"
)


def pages() -> list[str]:
    routes = [readme_form(r) for r in _routes(get_resolver().url_patterns)]
    return [r for r in routes if not r.startswith(("/api/", "/admin/")) and not NOT_PAGES.search(r)]


def test_the_readme_lists_every_page() -> None:
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## Pages", 1)[1].split("\n## ", 1)[0]
    missing = [p for p in pages() if not re.search(f"`{re.escape(p)}[`?]", table)]
    assert not missing, f"the README's page table does not name {missing}"


@pytest.mark.parametrize(
    ("route", "form"),
    [
        ("t/<slug:slug>/rounds/<id:number>/", "/t/<slug>/rounds/<n>/"),
        ("p/<id:player_id>/", "/p/<id>/"),
        ("m/<str:token>/timer/", "/m/<token>/timer/"),
    ],
)
def test_routes_are_written_as_the_readme_writes_them(route: str, form: str) -> None:
    assert readme_form(route) == form

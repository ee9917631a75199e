"""The docs match the code.

Vocabulary: the *layout* is the tree in ``docs/architecture.md``'s first code
block: one entry a line, indented two spaces a level, a folder ending in
``/``, modules comma-separated, a description after two or more spaces; a
folder's entry may name its modules in its description instead
(``templatetags/  offline.py (...), round_clock.py (...)``). The *pages* are
the routes of the web URL map that answer a GET; the README's page table must
name each one. The README's *API session* is its first block of ``curl``
commands (after "A session with the demo"): each *step* a command and the
answer shown, an elided part written ``…``; its ids are those of a new
database, where the demo's n-th player is player n.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

from tests.tournaments.api.conftest import client_as
from tournaments.demo import DEMO_PLAYERS, DEMO_SLUG
from tournaments.models import Match, Player

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


# ----------------------------------------------------------------------------- the API session


def readme_session() -> list[tuple[str, str]]:
    """The README's API session and its refused game: each step's command (its
    lines joined) and the answer shown."""
    readme = (ROOT / "README.md").read_text()
    after = readme.split("A session with the demo", 1)[1]
    blocks = re.findall(r"```sh\n(.*?)```", after, re.S)[:2]
    steps: list[tuple[str, str]] = []
    for block in blocks:
        for step in re.split(r"\n(?=\$ )", block.strip()):
            lines = step.splitlines()
            taken = 1
            # A command goes on while a line ends in a backslash or a quote is open.
            while lines[taken - 1].endswith("\\") or "\n".join(lines[:taken]).count("'") % 2:
                taken += 1
            steps.append(("\n".join(lines[:taken]), "\n".join(lines[taken:])))
    return steps


def shown(answer: str) -> Any:
    """The JSON an answer shows (its last lines, from the one that opens it), the
    elided parts left out."""
    lines = answer.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("{"))
    return json.loads("\n".join(lines[start:]).replace(",…", ""))


def step_of(steps: list[tuple[str, str]], *, path: str, posting: bool) -> tuple[str, str]:
    return next(s for s in steps if path in s[0] and ("-X POST" in s[0]) == posting)


def body_of(command: str) -> Any:
    found = re.search(r"-d '(.*)'", command, re.S)
    assert found is not None, command
    return json.loads(found.group(1))


@pytest.mark.django_db
def test_the_readme_api_session_is_what_the_demo_answers() -> None:
    call_command("load_demo", force=True)
    # The README's ids are a new database's: the demo's n-th player is player n.
    ids = {name: pk for pk, name in Player.objects.values_list("pk", "name")}
    real = {n: ids[name] for n, name in enumerate(DEMO_PLAYERS, start=1)}
    fresh = {pk: n for n, pk in real.items()}
    match = Match.objects.get(round__tournament__slug=DEMO_SLUG, round__number=3, table=1)
    client = client_as(get_user_model().objects.get(username="organiser"))
    steps = readme_session()

    command, answer = step_of(steps, path="/rounds/3/", posting=False)
    seated = list(match.seats.order_by("position").values_list("player_id", flat=True))
    assert shown(answer)["matches"][0]["players"] == [fresh[pk] for pk in seated]

    # The game, its players as the demo's, recorded at that table.
    command, answer = step_of(steps, path="/matches/9/games/", posting=True)
    game = body_of(command)
    assert [rack["player"] for rack in game["racks"]] == [fresh[pk] for pk in seated]
    for rack in game["racks"]:
        rack["player"] = real[rack["player"]]
    got = client.post(f"/api/v1/matches/{match.pk}/games/", game, format="json")
    assert got.status_code == 201 and f"HTTP/1.1 {got.status_code} Created" in answer
    recorded = got.json()
    recorded["winners"] = [fresh[pk] for pk in recorded["winners"]]
    for score in recorded["scores"]:
        score["player"] = fresh[score["player"]]
    expected = shown(answer)
    # Every field in the answer's order; ids other than the players' are a new database's.
    assert list(expected) == list(recorded)
    assert {k: v for k, v in expected.items() if k not in ("id", "match", "scores")} == {
        k: v for k, v in recorded.items() if k not in ("id", "match", "scores")
    }
    assert expected["scores"] == recorded["scores"][: len(expected["scores"])]

    command, answer = step_of(steps, path="/standings/", posting=False)
    standings = client.get(f"/api/v1/tournaments/{match.round.tournament_id}/standings/").json()
    for row in standings["results"]:
        row["player"] = fresh[row["player"]]
    expected = shown(answer)
    assert list(expected) == list(standings)
    assert expected["stage"] == standings["stage"] and expected["decided"] == standings["decided"]
    assert expected["results"] == standings["results"][: len(expected["results"])]
    assert list(expected["results"][0]) == list(standings["results"][0])

    # The refused game names the player at the rack it refuses.
    command, answer = steps[-1]
    refused = body_of(command)
    for rack in refused["racks"]:
        rack["player"] = real[rack["player"]]
    got = client.post(f"/api/v1/matches/{match.pk}/games/", refused, format="json")
    assert got.status_code == 400 and got.json() == shown(answer)

"""The backup's JSON Schema stays in step with the models: every choice the
models know is a value the schema takes, and nothing else."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from django.db import models

from tournaments.backups.checks import SCHEMA_PATH
from tournaments.backups.document import ENTRY_SOURCES_MAX
from tournaments.models import Adjustment, AuditEvent, Entry, Game, Round, Tournament
from tournaments.services.results import Via

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def enum_at(*path: str) -> list[str]:
    node = SCHEMA["properties"][path[0]]
    if node.get("type") == "array":
        node = node["items"]
    for name in path[1:]:
        node = node["properties"][name]
    enum: list[str] = node["enum"]
    return enum


def choices(model: type[models.Model], name: str) -> list[str]:
    return [value for value, _label in model._meta.get_field(name).flatchoices]


TOURNAMENT_CHOICES = [
    f.name for f in Tournament._meta.concrete_fields if f.choices and not f.primary_key
]


@pytest.mark.parametrize("name", TOURNAMENT_CHOICES)
def test_every_tournament_choice_is_enumerated(name):
    assert enum_at("tournament", name) == choices(Tournament, name)


@pytest.mark.parametrize(
    ("path", "model", "name"),
    [
        (("entries", "status"), Entry, "status"),
        (("rounds", "stage"), Round, "stage"),
        (("games", "state"), Game, "state"),
        (("games", "ending"), Game, "ending"),
        (("adjustments", "kind"), Adjustment, "kind"),
        (("audit", "action"), AuditEvent, "action"),
    ],
)
def test_every_row_choice_is_enumerated(path, model, name):
    expected = choices(model, name)
    if model is AuditEvent:
        # A club's own trail (no tournament) never travels in a tournament's backup.
        expected = [a for a in expected if a not in CLUB_TRAIL_ONLY]
    assert enum_at(*path) == expected


# The actions only a club's own trail records.
CLUB_TRAIL_ONLY = {"club.created", "member.added", "member.removed"}


def test_the_checksum_is_required():
    assert "checksum" in SCHEMA["required"]
    assert set(SCHEMA["required"]) == set(SCHEMA["properties"])


def test_an_entry_source_is_bounded_and_its_ways_are_the_services():
    games = SCHEMA["properties"]["games"]["items"]["properties"]
    assert games["entry_sources"]["maxItems"] == ENTRY_SOURCES_MAX
    source = SCHEMA["$defs"]["entry_source"]
    assert source["properties"]["via"]["enum"] == list(get_args(Via))
    assert source["properties"]["user"]["maxLength"] == 150  # a username, as text
    assert source["additionalProperties"] is False

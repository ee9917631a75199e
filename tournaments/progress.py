"""Where an event stands and what the organiser does next: the desk's "next step".

Vocabulary: the *facts* are what the desk knows about the event (is it
finished, how many players are entered and how many of them are active, how
many qualifying rounds are planned and seated, whether semi-finals are
configured, and the last round's tables and games); a *step* is the answer: a
message key with its numbers and the names of the actions that make sense
now, most useful first. A round is *complete* when every table has all its
games, *untouched* while none is recorded. Pure: no ORM;
``selectors.progress_for`` gathers the facts.

Action names: ``players_add``, ``round_seat`` (the next qualifying round),
``semifinal_seat``, ``final_seat``, ``round_reseat`` and ``players_swap`` (the
last round, while untouched), ``round_print`` (its score sheets),
``tournament_finish`` and ``tournament_reopen``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

QUALIFYING = "qualifying"
SEMIFINAL = "semifinal"
FINAL = "final"


@dataclass(frozen=True)
class RoundFacts:
    """The last round: its number and stage, its tables and their games."""

    number: int
    stage: str
    tables: int
    tables_complete: int
    games_played: int
    games_left: int
    # The numbers of the tables still missing games, lowest first.
    tables_open: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        return self.tables_complete >= self.tables

    @property
    def untouched(self) -> bool:
        return self.games_played == 0


@dataclass(frozen=True)
class Facts:
    """What the desk knows about the event."""

    finished: bool
    entered: int
    players: int
    rounds_planned: int
    semifinals: bool
    qualifying_seated: int = 0
    last: RoundFacts | None = None


@dataclass(frozen=True)
class Step:
    """Where the event stands (a message key and its numbers) and what to do next;
    while a round is played, the tables it still waits for."""

    key: str
    params: Mapping[str, int] = field(default_factory=dict)
    actions: tuple[str, ...] = ()
    tables_open: tuple[int, ...] = ()


def _playing(facts: Facts, last: RoundFacts) -> Step:
    """The last round still has games to play."""
    params = {
        "number": last.number,
        "rounds": max(facts.rounds_planned, facts.qualifying_seated),
        "done": last.tables_complete,
        "tables": last.tables,
        "left": last.games_left,
    }
    # The seating may still change while nothing is recorded; the sheets are
    # printed in either case.
    actions = (
        ("round_print", "round_reseat", "players_swap") if last.untouched else ("round_print",)
    )
    key = {SEMIFINAL: "semifinal_playing", FINAL: "final_playing"}.get(last.stage, "round_playing")
    return Step(key, params, actions, last.tables_open)


def _complete(facts: Facts, last: RoundFacts) -> Step:
    """The last round is complete: the next round, the next stage, or the end."""
    if last.stage == FINAL:
        return Step("final_complete", {"number": last.number}, ("tournament_finish",))
    if last.stage == SEMIFINAL:
        return Step("semifinal_complete", {"number": last.number}, ("final_seat",))
    params = {
        "number": facts.qualifying_seated,
        "rounds": max(facts.rounds_planned, facts.qualifying_seated),
        "next": last.number + 1,
    }
    if facts.qualifying_seated < facts.rounds_planned:
        return Step("round_complete", params, ("round_seat",))
    if facts.semifinals:
        return Step("qualifying_complete_semifinals", params, ("semifinal_seat",))
    # Without semi-finals a final is optional: nothing configures it, so the
    # organiser may finish now or let the best players play one more table.
    return Step("qualifying_complete", params, ("tournament_finish", "final_seat"))


def step_next(facts: Facts) -> Step:
    """The desk's next step for an event in this state."""
    if facts.finished:
        return Step("finished", {}, ("tournament_reopen",))
    last = facts.last
    if last is None:
        if facts.entered == 0:
            return Step("no_players", {}, ("players_add",))
        if facts.players < 2:
            return Step("too_few_players", {"players": facts.players}, ("players_add",))
        return Step("ready", {"players": facts.players, "next": 1}, ("round_seat",))
    if not last.complete:
        return _playing(facts, last)
    return _complete(facts, last)

"""The desk's next step, decided from the facts alone (no database)."""

from __future__ import annotations

import pytest

from tournaments.progress import Facts, RoundFacts, Step, step_next


def last(
    number: int, stage: str = "qualifying", *, tables: int = 6, done: int = 6, played: int = 24
) -> RoundFacts:
    """A last round whose first ``done`` of ``tables`` tables are complete (4 games a table)."""
    return RoundFacts(
        number=number,
        stage=stage,
        tables=tables,
        tables_complete=done,
        games_played=played,
        games_left=tables * 4 - played,
        tables_open=tuple(range(done + 1, tables + 1)),
    )


def facts(
    *,
    entered: int | None = None,
    players: int = 24,
    planned: int = 3,
    semis: bool = False,
    seated: int = 0,
    round_: RoundFacts | None = None,
    finished: bool = False,
) -> Facts:
    return Facts(
        finished=finished,
        entered=players if entered is None else entered,
        players=players,
        rounds_planned=planned,
        semifinals=semis,
        qualifying_seated=seated,
        last=round_,
    )


CASES: list[tuple[str, Facts, Step]] = [
    ("nobody entered", facts(players=0), Step("no_players", {}, ("players_add",))),
    (
        "one player",
        facts(players=1),
        Step("too_few_players", {"players": 1}, ("players_add",)),
    ),
    (
        "players entered, none checked in",
        facts(entered=5, players=0),
        Step("too_few_players", {"players": 0}, ("players_add",)),
    ),
    ("ready", facts(players=13), Step("ready", {"players": 13, "next": 1}, ("round_seat",))),
    (
        "round 1 seated, nothing played",
        facts(seated=1, round_=last(1, done=0, played=0)),
        Step(
            "round_playing",
            {"number": 1, "rounds": 3, "done": 0, "tables": 6, "left": 24},
            ("round_print", "round_reseat", "players_swap"),
            (1, 2, 3, 4, 5, 6),
        ),
    ),
    (
        "round 2 under way",
        facts(seated=2, round_=last(2, done=4, played=19)),
        Step(
            "round_playing",
            {"number": 2, "rounds": 3, "done": 4, "tables": 6, "left": 5},
            ("round_print",),
            (5, 6),
        ),
    ),
    (
        "round 2 complete",
        facts(seated=2, round_=last(2)),
        Step("round_complete", {"number": 2, "rounds": 3, "next": 3}, ("round_seat",)),
    ),
    (
        "qualifying complete, semi-finals configured",
        facts(seated=3, semis=True, round_=last(3)),
        Step(
            "qualifying_complete_semifinals",
            {"number": 3, "rounds": 3, "next": 4},
            ("semifinal_seat",),
        ),
    ),
    (
        "qualifying complete, no semi-finals",
        facts(seated=3, round_=last(3)),
        Step(
            "qualifying_complete",
            {"number": 3, "rounds": 3, "next": 4},
            ("tournament_finish", "final_seat"),
        ),
    ),
    (
        "more rounds seated than now planned",
        facts(planned=2, seated=3, round_=last(3, done=1, played=10)),
        Step(
            "round_playing",
            {"number": 3, "rounds": 3, "done": 1, "tables": 6, "left": 14},
            ("round_print",),
            (2, 3, 4, 5, 6),
        ),
    ),
    (
        "semi-finals seated",
        facts(seated=3, semis=True, round_=last(4, "semifinal", tables=2, done=0, played=0)),
        Step(
            "semifinal_playing",
            {"number": 4, "rounds": 3, "done": 0, "tables": 2, "left": 8},
            ("round_print", "round_reseat", "players_swap"),
            (1, 2),
        ),
    ),
    (
        "semi-finals half played",
        facts(seated=3, semis=True, round_=last(4, "semifinal", tables=2, done=1, played=5)),
        Step(
            "semifinal_playing",
            {"number": 4, "rounds": 3, "done": 1, "tables": 2, "left": 3},
            ("round_print",),
            (2,),
        ),
    ),
    (
        "semi-finals complete",
        facts(seated=3, semis=True, round_=last(4, "semifinal", tables=2, done=2, played=8)),
        Step("semifinal_complete", {"number": 4}, ("final_seat",)),
    ),
    (
        "final: one game left",
        facts(seated=3, semis=True, round_=last(5, "final", tables=1, done=0, played=3)),
        Step(
            "final_playing",
            {"number": 5, "rounds": 3, "done": 0, "tables": 1, "left": 1},
            ("round_print",),
            (1,),
        ),
    ),
    (
        "final complete",
        facts(seated=3, semis=True, round_=last(5, "final", tables=1, done=1, played=4)),
        Step("final_complete", {"number": 5}, ("tournament_finish",)),
    ),
    (
        "finished",
        facts(seated=3, round_=last(3), finished=True),
        Step("finished", {}, ("tournament_reopen",)),
    ),
    (
        "finished before any round",
        facts(players=0, finished=True),
        Step("finished", {}, ("tournament_reopen",)),
    ),
]


@pytest.mark.parametrize(("given", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_step_next(given: Facts, expected: Step) -> None:
    assert step_next(given) == expected


def test_round_facts_complete_and_untouched() -> None:
    assert last(1).complete and not last(1).untouched
    fresh = last(1, done=0, played=0)
    assert fresh.untouched and not fresh.complete

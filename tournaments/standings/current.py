"""The current ranking: which order of the players a tournament shows now, and why.

Vocabulary:

* the *stages* are ``qualifying``, ``semifinal`` and ``final``; a stage is
  *seated* once its round has tables; the stages *there are* in a tournament
  (``stages_there``) are the qualifying stage and each one seated: standings
  are asked of those only (``stage_there_check``);
* a stage's *rows* are the players seated in it, ranked by that stage (with
  the points carried over as the tournament's ``carry_over`` says: the read
  counts them, ``stage_rows`` halves them), ties going to the better qualifier;
* the *placings* put the players still in play first, ranked by the stage they
  are in, then those out of it by the stage they reached (the other
  semi-finalists by the semi-finals), then everyone else by the qualifying
  standings; ``rank`` is the place, shared only where the qualifying standings
  share it;
* the *current ranking* is the qualifying standings before any stage is
  seated, the placings once one is, and the *final placings* once the
  tournament is *decided* (its final played out, or the tournament finished);
  asked for the qualifying stage, it is always the qualifying standings;
* a final played to N wins is *decided* at a table as soon as one player has N
  wins there (``final_winner``): no further game is played at it;
* a final table is *played out* when it has all its games or is decided.

Plain data in, plain data out: the selector ``selectors.standings.ranking_current``
reads the rows and hands them here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from scoring.errors import UserError, _
from tournaments.standings.ranking import StandingRow, ranks_shift

QUALIFYING = "qualifying"
SEMIFINAL = "semifinal"
FINAL = "final"
STAGES: tuple[str, ...] = (QUALIFYING, SEMIFINAL, FINAL)

# What each view calls the order it shows (translated where shown).
LABEL_QUALIFYING = _("Qualifying")
LABEL_SEMIFINAL = _("Semi-finals")
LABEL_FINAL = _("Final")
LABEL_FINAL_PLACINGS = _("Final placings")
STAGE_LABELS: dict[str, str] = {
    QUALIFYING: LABEL_QUALIFYING,
    SEMIFINAL: LABEL_SEMIFINAL,
    FINAL: LABEL_FINAL,
}


def stages_there(*, seated: Collection[str]) -> tuple[str, ...]:
    """The stages a tournament has, in order: qualifying always, then each of
    ``seated`` (the stages its rounds are of)."""
    return tuple(s for s in STAGES if s == QUALIFYING or s in seated)


def stage_there_check(*, stage: str, seated: Collection[str]) -> None:
    """Refuse standings of a stage the tournament does not have (a final before
    it is seated: everyone would tie at nothing), naming the stages there are."""
    there = stages_there(seated=seated)
    if stage not in there:
        raise UserError(
            _("This tournament has no %(stage)s stage; the stages there are: %(stages)s."),
            field="stage",
            code="stage_absent",
            stage=stage,
            stages=", ".join(there),
        )


@dataclass(frozen=True)
class StagePlayed:
    """A seated stage after qualifying: its players ranked by it."""

    stage: str
    rows: Sequence[StandingRow]


@dataclass(frozen=True)
class FinalTable:
    """One table of a final: games played and planned, and each player's wins there."""

    games: int
    planned: int
    wins: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class RankingCurrent:
    """The order of the players now, and the stage it comes from.

    ``stage``: the stage whose results lead the order (``qualifying`` before any
    stage is seated or when the qualifying table was asked for); ``decided``:
    these are the final placings; ``staged``: a semi-final or final is seated,
    so the qualifying table differs from this order.
    """

    stage: str
    decided: bool
    staged: bool
    rows: list[StandingRow]

    @property
    def label(self) -> str:
        """What the view calls this order (untranslated: ``gettext`` it where shown)."""
        if self.decided:
            return LABEL_FINAL_PLACINGS
        return STAGE_LABELS[self.stage]

    @property
    def qualifying(self) -> bool:
        """Whether this is the qualifying table."""
        return self.stage == QUALIFYING and not self.decided


def final_winner(*, wins: Mapping[int, int], first_to: int) -> tuple[int, int] | None:
    """A final table played to ``first_to`` wins: the player who has them and
    their wins (the most wins, then the lowest id), or None while undecided (and
    always None when the final is not played to a number of wins)."""
    if first_to <= 0:
        return None
    reached = [(count, player) for player, count in wins.items() if count >= first_to]
    if not reached:
        return None
    count, player = min(reached, key=lambda cp: (-cp[0], cp[1]))
    return player, count


def final_played_out(*, tables: Sequence[FinalTable], first_to: int) -> bool:
    """Whether every final table has all its games or is decided (no tables: False)."""
    return bool(tables) and all(
        t.games >= t.planned or final_winner(wins=t.wins, first_to=first_to) is not None
        for t in tables
    )


def placings(
    *, qualifying: Sequence[StandingRow], stages: Sequence[StagePlayed]
) -> list[StandingRow]:
    """The latest stage's players first, then each earlier stage's not yet placed,
    then the rest by the qualifying standings; ranks renumbered as places.

    Copies of the rows: the caller's keep their ranks. Each row's ``stage`` says
    which stage placed it."""
    order = {s: i for i, s in enumerate(STAGES)}
    places: list[StandingRow] = []
    placed: set[int] = set()
    for played in sorted(stages, key=lambda p: order[p.stage], reverse=True):
        rows = [replace(r, stage=played.stage) for r in played.rows if r.player_id not in placed]
        ranks_shift(rows, offset=len(places))
        places.extend(rows)
        placed.update(r.player_id for r in rows)
    rest = [replace(r, stage=QUALIFYING) for r in qualifying if r.player_id not in placed]
    ranks_shift(rest, offset=len(places))
    places.extend(rest)
    return places


def ranking_current_of(
    *,
    qualifying: Sequence[StandingRow],
    stages: Sequence[StagePlayed],
    final_over: bool,
    finished: bool,
    asked: str | None = None,
) -> RankingCurrent:
    """The current ranking from the qualifying standings and the seated stages.

    ``final_over``: every final table is played out; ``finished``: the
    organiser finished the tournament; ``asked``: ``qualifying`` for the
    qualifying table whatever the stage, None for the current ranking.
    """
    seated = [s for s in stages if s.stage != QUALIFYING and s.rows]
    if asked == QUALIFYING:
        rows = [replace(r, stage=QUALIFYING) for r in qualifying]
        return RankingCurrent(stage=QUALIFYING, decided=False, staged=bool(seated), rows=rows)
    if not seated:
        rows = [replace(r, stage=QUALIFYING) for r in qualifying]
        return RankingCurrent(stage=QUALIFYING, decided=finished, staged=False, rows=rows)
    latest = max((s.stage for s in seated), key=STAGES.index)
    decided = finished or (latest == FINAL and final_over)
    return RankingCurrent(
        stage=latest,
        decided=decided,
        staged=True,
        rows=placings(qualifying=qualifying, stages=seated),
    )

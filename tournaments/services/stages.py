"""Stage services: seating the semi-finals and the final.

Vocabulary: a *stage* is qualifying, semi-final or final; every round belongs
to one. Semi-finals seat the top ``semifinal_players`` of the qualifying
standings dealt round the tables: with 8 players, seeds 1/3/5/7 at table 1
and 2/4/6/8 at table 2, in that seat order. The final seats the winner of
each semi-final table and then the best of the rest
(``standings.queries.stage_entrants``), at most 4.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date as Date

from django.db import transaction

from scoring.errors import ConflictError, UserError, _
from tournaments import seating
from tournaments.actors import ActingUser
from tournaments.models import Round, Tournament
from tournaments.selectors.standings import stage_entrants
from tournaments.services.plans import (
    last_round_complete_check,
    round_store,
    tournament_locked,
)
from tournaments.services.tournament_open import tournament_open_check
from tournaments.standings.current import FINAL, QUALIFYING, SEMIFINAL

FINAL_TABLE_SIZE = 4


def _deal(seeds: Sequence[int], *, max_size: int) -> list[list[int]]:
    """Deal seeds round the tables: table t gets seeds t, t + n, t + 2n, … (n tables)."""
    sizes, _byes = seating.table_sizes(players=len(seeds), max_size=max_size)
    count = max(1, len(sizes))
    return [list(seeds[t::count]) for t in range(count)]


def stage_tables(tournament: Tournament, stage: str) -> list[list[int]]:
    """The tables of a semi-final or final, from the standings as they are now."""
    if stage == SEMIFINAL:
        wanted = tournament.semifinal_players
        if wanted < 2:
            raise ConflictError(
                _("This tournament has no semi-finals: set the number of semi-final players."),
                field="stage",
            )
    else:
        wanted = min(FINAL_TABLE_SIZE, tournament.max_table_size)
    entrants = stage_entrants(tournament=tournament, stage=stage)
    if len(entrants) < wanted:
        raise ConflictError(
            _("The %(stage)s seats %(wanted)s players, but only %(count)s can play."),
            stage=Round.Stage(stage).label,
            wanted=wanted,
            count=len(entrants),
        )
    if stage == FINAL:
        return [entrants[:wanted]]
    return _deal(entrants[:wanted], max_size=tournament.max_table_size)


@transaction.atomic
def stage_seat(
    *, tournament: Tournament, stage: str, date: Date | None = None, user: ActingUser = None
) -> Round:
    """Seat the semi-finals or the final as the next round.

    Semi-finals: the top ``semifinal_players`` active players of the qualifying
    standings, dealt round the tables in seed order (8 players: seeds 1/3/5/7
    and 2/4/6/8, seated in that order). Final: the winner of each semi-final
    table, then the best of the other semi-finalists by the semi-final's
    results (without semi-finals: the top of the qualifying standings), at most
    4, seated in that order (``final_from`` ``stage_points``: the best by the
    semi-final's points alone). ``carry_over`` only changes the stages'
    places (``standings.queries.final_places_for``). Each stage's round plays
    its own number of games (``_plans.stage_games``).
    """
    if stage not in (SEMIFINAL, FINAL):
        raise UserError(
            _("A stage is %(semifinal)s or %(final)s, not %(stage)s."),
            field="stage",
            semifinal=SEMIFINAL,
            final=FINAL,
            stage=stage,
        )
    tournament = tournament_locked(tournament)
    tournament_open_check(tournament)
    rounds = list(tournament.round_set.order_by("number"))
    stages = {r.stage for r in rounds}
    label = Round.Stage(stage).label
    if stage in stages:
        raise ConflictError(
            _("The %(stage)s is already seated; re-seat that round instead."), stage=label
        )
    if not any(r.stage == QUALIFYING for r in rounds):
        raise ConflictError(_("Play the qualifying rounds before the %(stage)s."), stage=label)
    if stage == SEMIFINAL and FINAL in stages:
        raise ConflictError(_("The final is already seated: it is too late for semi-finals."))
    if stage == FINAL and tournament.semifinal_players >= 2 and SEMIFINAL not in stages:
        raise ConflictError(
            _(
                "This tournament has semi-finals: seat and play them before the final "
                "(or set the number of semi-final players to 0)."
            )
        )
    last = rounds[-1]
    last_round_complete_check(last)
    tables = stage_tables(tournament, stage)
    plan = seating.RoundPlan(tables=tuple(tuple(t) for t in tables), byes=(), repeats=0)
    return round_store(
        tournament=tournament, number=last.number + 1, plan=plan, stage=stage, date=date, user=user
    )

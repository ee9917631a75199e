"""Standings read from the database, then ranked by ``ranking``; and the one
current ranking every page, file and answer shows.

Vocabulary (the ranking's own is in ``standings.ranking``, the current
ranking's in ``standings.current``):

* **scope**: which games and adjustments a standings table counts: all of them
  (the default), some round numbers, or some *stages*. The qualifying stage
  also counts the adjustments that belong to no round (an organiser's penalty
  for the event); a semi-final or final counts only its own rounds.
* **current ranking** (``ranking_current``): the qualifying standings before
  any stage is seated, then the placings so far (the players still in play
  first, by their stage), then the final placings. Every view that orders
  players reads it; ``?stage=qualifying`` asks for the qualifying table.
* **final places** (``final_places_for``): the placings' rows alone.
* a final played to N wins is **decided** at a table once a player has N wins
  there (``finals_decided``, the rule itself in ``standings.current``).

Games not confirmed yet count or not as the tournament's
``standings_unconfirmed`` says (``unconfirmed`` counts them for the page).

Each read runs a fixed number of queries, whatever the size of the
tournament; tests pin the counts. ``standings_shared`` and
``ranking_current`` compute once per tournament version and hand every
reader (the pages, the exports, the API) the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from django.db.models import Count, Q

from scoring.errors import UserError, _
from tournaments.caching import (
    Stamped,
    cached,
    cached_flight,
    tournament_key,
    version_served,
)
from tournaments.models import Rack, Round, Seat, Tournament
from tournaments.selectors.standings_rows import standings_read, tie_breaks_of
from tournaments.standings.current import (
    FINAL,
    QUALIFYING,
    SEMIFINAL,
    STAGES,
    FinalTable,
    RankingCurrent,
    StagePlayed,
    final_played_out,
    final_winner,
    ranking_current_of,
)
from tournaments.standings.ranking import StandingRow, category_rows, seed_key
from tournaments.standings.stage_rows import carried_half_ranked, first_to_ranked

# A cached read outlives a quiet evening; a new version replaces it anyway.
SHARED_SECONDS = 6 * 3600


def _stages_of(stage: str | Sequence[str] | None) -> tuple[str, ...] | None:
    if stage is None:
        return None
    stages = (stage,) if isinstance(stage, str) else tuple(stage)
    unknown = [s for s in stages if s not in STAGES]
    if unknown:
        raise UserError(
            _("Unknown stage %(stage)s; choose from %(known)s."),
            field="stage",
            stage=", ".join(unknown),
            known=", ".join(STAGES),
        )
    return stages


def standings_for(
    *,
    tournament: Tournament,
    rounds: Sequence[int] | None = None,
    stage: str | Sequence[str] | None = None,
) -> list[StandingRow]:
    """Every entered player's standings row, ranked; three queries, whatever the
    tie-breaks (head-to-head and opponents' average read per-match sums instead
    of per-player ones).

    ``rounds`` limits the games counted to those round numbers, and the
    adjustments to those of the same rounds. ``stage`` (one stage or several)
    limits both to those stages' rounds; the qualifying stage also counts the
    adjustments that belong to no round.
    """
    return standings_read(tournament=tournament, rounds=rounds, stages=_stages_of(stage))


def standings_shared(
    *, tournament: Tournament, stage: str | None = None, version: int | None = None
) -> list[StandingRow]:
    """``standings_for`` the whole tournament (or one stage), computed once per
    tournament version and shared by every page, export and API answer.
    ``version``: the tournament's, when the caller has read it already."""
    key = tournament_key(
        tournament=tournament, what="standings", parts=(stage or "",), version=version
    )
    return cached(
        cache="default",
        key=key,
        build=lambda: standings_for(tournament=tournament, stage=stage),
        # A new version replaces the rows anyway; this only frees memory.
        timeout=SHARED_SECONDS,
    )


def stage_standings(
    *, tournament: Tournament, stage: str, carry_over: bool | None = None
) -> list[StandingRow]:
    """The players seated in a semi-final or final, ranked by that stage.

    With carry-over (the tournament's ``carry_over`` other than "0" unless
    given) the points of every earlier stage count too. What is still tied after the
    tie-breaks goes to the better qualifier, so places are distinct.
    """
    if stage not in (SEMIFINAL, FINAL):
        raise UserError(_("Only a semi-final or a final has stage standings."), field="stage")
    carry = tournament.carry_over != "0" if carry_over is None else carry_over
    qualifying = standings_read(tournament=tournament, stages=(QUALIFYING,))
    seeds = {r.player_id: i for i, r in enumerate(qualifying)}
    tables = _seated_in_stages(tournament)[0].get(stage, {})
    return _stage_rows(tournament=tournament, stage=stage, tables=tables, seeds=seeds, carry=carry)


def _stage_rows(
    *,
    tournament: Tournament,
    stage: str,
    tables: dict[int, list[int]],
    seeds: dict[int, int],
    carry: bool,
) -> list[StandingRow]:
    players = {p for table in tables.values() for p in table}
    # What carries over: the tournament's share; a caller's carry over a "0" one, all of it.
    share = (tournament.carry_over if tournament.carry_over != "0" else "1") if carry else "0"
    stages = STAGES[: STAGES.index(stage) + 1] if share == "1" else (stage,)
    rows = standings_read(
        tournament=tournament, stages=stages, players=players, extra=(seed_key(seeds),)
    )
    if share == Tournament.CarryOver.HALF:
        earlier = standings_read(
            tournament=tournament, stages=STAGES[: STAGES.index(stage)], players=players
        )
        rows = carried_half_ranked(
            tournament=tournament,
            rows=rows,
            earlier=earlier,
            tie_breaks=[*tie_breaks_of(tournament), seed_key(seeds)],
        )
    if stage == FINAL and tournament.final_first_to:
        rows = first_to_ranked(rows=rows, seed=seed_key(seeds))
    for row in rows:
        row.stage = stage
    return rows


def stage_entrants(*, tournament: Tournament, stage: str) -> list[int]:
    """Who goes to a stage, best first: every eligible (active) player in order.

    Semi-final: the qualifying standings. Final: the winner of each semi-final
    table (by the semi-final's own results), then the other semi-finalists by
    those results (``final_from`` ``stage_points``: the semi-finalists by those
    results alone); without semi-finals, the qualifying standings. Ties left
    after the tie-breaks go to the better qualifier. The caller takes as many
    as the stage seats.
    """
    qualifying = standings_read(tournament=tournament, stages=(QUALIFYING,))
    if stage == SEMIFINAL:
        return [r.player_id for r in qualifying if r.active]
    if stage != FINAL:
        raise UserError(_("Only a semi-final or a final has entrants."), field="stage")
    tables = _seated_in_stages(tournament)[0].get(SEMIFINAL)
    if not tables:
        return [r.player_id for r in qualifying if r.active]
    seeds = {r.player_id: i for i, r in enumerate(qualifying)}
    rows = _stage_rows(
        tournament=tournament, stage=SEMIFINAL, tables=tables, seeds=seeds, carry=False
    )
    active = {r.player_id for r in rows if r.active}
    order = [r.player_id for r in rows]
    if tournament.final_from == Tournament.FinalFrom.STAGE_POINTS:
        return [p for p in order if p in active]
    place = {pid: i for i, pid in enumerate(order)}
    winners: list[int] = []
    for table in tables.values():
        here = sorted((p for p in table if p in active), key=place.__getitem__)
        if here:
            winners.append(here[0])
    winners.sort(key=place.__getitem__)
    rest = [p for p in order if p in active and p not in winners]
    return [*winners, *rest]


def final_places_for(*, tournament: Tournament) -> list[StandingRow]:
    """Every entered player's place: the final table first (by the final, or
    with carried-over points), then the other semi-finalists (by the
    semi-final), then the rest by the qualifying standings: the rows of the
    current ranking (``ranking_current``), read afresh. A fixed number of
    queries (ten).

    ``rank`` is the place; players tied in the qualifying standings share one.
    """
    return _ranking_read(tournament=tournament, asked=None, final_state=False).rows


def _seated_in_stages(
    tournament: Tournament,
) -> tuple[dict[str, dict[int, list[int]]], dict[int, int]]:
    """Per stage after qualifying, its tables (match id → player ids in seat
    order), and each of those tables' planned games; one query."""
    seated: dict[str, dict[int, list[int]]] = {}
    planned: dict[int, int] = {}
    for stage, match_id, player_id, games in (
        Seat.objects.filter(round__tournament=tournament, round__stage__in=(SEMIFINAL, FINAL))
        .order_by("round__number", "match__table", "position")
        .values_list("round__stage", "match_id", "player_id", "round__games_per_match")
    ):
        seated.setdefault(stage, {}).setdefault(match_id, []).append(player_id)
        planned[match_id] = games
    return seated, planned


def _final_tables(*, planned: dict[int, int]) -> list[FinalTable]:
    """Each final table (match id → planned games) with its games played and
    its players' wins; one query."""
    games: dict[int, int] = dict.fromkeys(planned, 0)
    wins: dict[int, dict[int, int]] = {m: {} for m in planned}
    for match_id, player_id, played, won in (
        Rack.objects.filter(game__match_id__in=list(planned))
        .order_by()
        .values("game__match_id", "player_id")
        .annotate(played=Count("id"), won=Count("id", filter=Q(winner=True)))
        .values_list("game__match_id", "player_id", "played", "won")
    ):
        # Every seated player has a rack in every game of the table.
        games[match_id] = max(games[match_id], played)
        wins[match_id][player_id] = won
    return [FinalTable(games=games[m], planned=n, wins=wins[m]) for m, n in planned.items()]


def finals_decided(*, rounds: Sequence[Round]) -> dict[int, tuple[int, int]]:
    """The final tables of ``rounds`` played to N wins where a player has won N
    games: match id → (that player's id, their wins); other tables never
    appear. One query (none without such a final). The rule is
    ``standings.current.final_winner``, shared with the pages."""
    first_to = {
        r.pk: r.tournament.final_first_to
        for r in rounds
        if r.stage == Round.Stage.FINAL and r.tournament.final_first_to
    }
    if not first_to:
        return {}
    wins: dict[tuple[int, int], dict[int, int]] = {}
    for round_id, match_id, player_id, won in (
        Rack.objects.filter(game__match__round_id__in=list(first_to), winner=True)
        .order_by()
        .values("game__match__round_id", "game__match_id", "player_id")
        .annotate(won=Count("id"))
        .values_list("game__match__round_id", "game__match_id", "player_id", "won")
    ):
        wins.setdefault((round_id, match_id), {})[player_id] = won
    decided: dict[int, tuple[int, int]] = {}
    for (round_id, match_id), by_player in wins.items():
        winner = final_winner(wins=by_player, first_to=first_to[round_id])
        if winner is not None:
            decided[match_id] = winner
    return decided


def _ranking_read(
    *, tournament: Tournament, asked: str | None, final_state: bool
) -> RankingCurrent:
    """The current ranking read from the database: the qualifying standings,
    each seated stage's rows, and (``final_state``) whether the final is played
    out. Before any stage: four queries; with stages, about ten."""
    qualifying = standings_read(tournament=tournament, stages=(QUALIFYING,))
    finished = tournament.is_finished
    seated, planned = _seated_in_stages(tournament)
    if asked == QUALIFYING:
        # Only whether a stage is seated matters here, not how it ranks.
        by_id = {r.player_id: r for r in qualifying}
        return ranking_current_of(
            qualifying=qualifying,
            stages=[
                StagePlayed(
                    stage=stage,
                    rows=[by_id[p] for t in tables.values() for p in t if p in by_id],
                )
                for stage, tables in seated.items()
            ],
            final_over=False,
            finished=finished,
            asked=asked,
        )
    seeds = {r.player_id: i for i, r in enumerate(qualifying)}
    played = [
        StagePlayed(
            stage=stage,
            rows=_stage_rows(
                tournament=tournament,
                stage=stage,
                tables=tables,
                seeds=seeds,
                carry=tournament.carry_over != "0",
            ),
        )
        for stage, tables in seated.items()
        if tables
    ]
    final = seated.get(FINAL, {})
    final_over = (
        bool(final)
        and final_state
        and not finished
        and final_played_out(
            tables=_final_tables(planned={m: planned[m] for m in final}),
            first_to=tournament.final_first_to,
        )
    )
    return ranking_current_of(
        qualifying=qualifying, stages=played, final_over=final_over, finished=finished
    )


def ranking_version_served(
    *, tournament: Stamped, stage: str | None = None, version: int | None = None
) -> int:
    """The version whose ranking the live answers built from it show now: the
    tournament's own, or while another request builds that one's ranking, the
    latest built (``caching.version_served``): pass it on as their version."""
    asked = stage if stage == QUALIFYING else None
    return version_served(
        tournament=tournament, what="ranking", parts=(asked or "",), version=version
    )


def ranking_current(
    *,
    tournament: Tournament,
    stage: str | None = None,
    category: str = "",
    version: int | None = None,
) -> RankingCurrent:
    """The tournament's current ranking and the stage it comes from (see
    ``standings.current``), computed once per tournament version and shared by
    every page, file, answer and command that orders players.

    ``stage``: ``qualifying`` for the qualifying table whatever the stage (None:
    the current ranking; any other stage is refused). ``category``: that
    category's players only, ranked afresh from 1 (none carries it: no rows).
    ``version``: the tournament's, when the caller has read it already.
    """
    if stage not in (None, "", QUALIFYING):
        raise UserError(
            _("Unknown stage %(stage)s; choose from %(known)s."),
            field="stage",
            stage=stage,
            known=QUALIFYING,
        )
    asked = stage or None
    ranking = cached_flight(
        tournament=tournament,
        what="ranking",
        parts=(asked or "",),
        version=version,
        build=lambda: _ranking_read(tournament=tournament, asked=asked, final_state=True),
        timeout=SHARED_SECONDS,
    )
    if category:
        return replace(ranking, rows=category_rows(ranking.rows, category=category))
    return ranking

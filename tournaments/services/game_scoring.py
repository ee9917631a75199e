"""Scoring a match's game without writing it.

Vocabulary: the *seats* of a match map each seated player's id to the seat;
a game is *scored* by the rules engine with the tournament's rules after
checking that every rack belongs to a seated player and every seated player
has a rack. A game *scored ahead* (``GameAhead``) was scored before the
transaction that records it, so that the transaction (on SQLite: the
database's one write lock) holds only the writes; ``game_scored_now`` takes
it inside the transaction while the seats and the rules it was scored by still
hold, and scores again otherwise.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import cast

from scoring import rules
from scoring.errors import UserError, _
from tournaments.models import Match, Seat, Tournament
from tournaments.selectors.matches import SEATS_KEPT


@dataclass(frozen=True)
class SeatedPlayer:
    """A seated player as the rules engine is given them: compared by id and
    printed by name, so that the engine's messages say "Rack 2 (Ben)" rather
    than "Rack 2 (17)". The scored game names players by id again
    (``game_scored``)."""

    player_id: int
    name: str = field(compare=False)

    def __str__(self) -> str:
        return self.name


def _player_id(player: Hashable) -> Hashable:
    return player.player_id if isinstance(player, SeatedPlayer) else player


# A rule set per distinct stored setting, not per tournament: a changed setting
# is another key, so nothing kept here outlives the values it was built from.
RULE_SETS_KEPT = 256
# The tournament's fields its rule set is built from: those named as the rule set's.
RULE_FIELDS = tuple(f.name for f in fields(rules.Rules))
_rule_sets: dict[tuple[str, ...], rules.Rules] = {}


def tournament_rules(tournament: Tournament) -> rules.Rules:
    """``tournament.rules()``, built once per process for each distinct rule
    setting (a rule set is frozen; building one checks the table points)."""
    # repr() of plain values (numbers, text, a mapping of lists) says all they hold.
    key = tuple([repr(getattr(tournament, name)) for name in RULE_FIELDS])
    kept = _rule_sets.get(key)
    if kept is None:
        if len(_rule_sets) >= RULE_SETS_KEPT:
            _rule_sets.clear()
        kept = _rule_sets[key] = tournament.rules()
    return kept


def match_seats(match: Match) -> dict[int, Seat]:
    """The match's seats as stored now, each with its player."""
    seats = Seat.objects.filter(match_id=match.pk).select_related("player").order_by("position")
    return {s.player_id: s for s in seats}


def _match_seats_known(match: Match) -> dict[int, Seat]:
    # The seats read with the match (its token's read) when there are: a game
    # scored ahead is checked against the stored seats inside its transaction.
    kept: list[Seat] | None = getattr(match, SEATS_KEPT, None)
    return {s.player_id: s for s in kept} if kept is not None else match_seats(match)


@dataclass(frozen=True)
class GameAhead:
    """A game scored before its transaction, and the seats and rules it was scored by.

    Recording takes it so that the transaction (on SQLite: the database's one
    write lock) holds only the writes; the record checks that the seats and the
    rules are still those, and scores again if not.
    """

    match_id: int
    ending: str
    racks: tuple[rules.RackIn, ...]
    seats: dict[int, Seat]
    rule_set: rules.Rules
    result: rules.GameOut


def game_score_ahead(*, match: Match, ending: str, racks: Sequence[rules.RackIn]) -> GameAhead:
    """Validate and score a match's game outside any transaction (refusals as
    ``game_record``'s)."""
    seats = _match_seats_known(match)
    result = game_scored(match=match, ending=ending, racks=racks, seats=seats)
    return GameAhead(
        match.pk, ending, tuple(racks), seats, tournament_rules(match.round.tournament), result
    )


def game_scored(
    *, match: Match, ending: str, racks: Sequence[rules.RackIn], seats: dict[int, Seat]
) -> rules.GameOut:
    """Score a match's game by its tournament's rules; refuses racks of players not
    seated there and a seated player without a rack."""
    for entry in racks:
        if entry.player not in seats:
            raise UserError(
                _("Player %(player)s is not seated at table %(table)s of round %(round)s."),
                field="racks",
                player=entry.player,
                table=match.table,
                round=match.round.number,
            )
    # Every player is a seated player's id now.
    placed = sorted(((seats[cast(int, r.player)], r) for r in racks), key=lambda sr: sr[0].position)
    result = rules.game_score(
        ending=ending,
        racks=[
            rules.RackIn(
                player=SeatedPlayer(seat.player_id, seat.player.name),
                tiles=r.tiles,
                points=r.points,
                jokers=r.jokers,
            )
            for seat, r in placed
        ],
        rules=tournament_rules(match.round.tournament),
    )
    result = replace(
        result,
        racks=tuple(replace(r, player=_player_id(r.player)) for r in result.racks),
        winners=tuple(_player_id(w) for w in result.winners),
    )
    # Everyone seated plays every game of the match: a game without one of
    # them would leave the table's standings out of step.
    entered = {r.player for r in racks}
    missing = sorted(
        (seat for pid, seat in seats.items() if pid not in entered), key=lambda s: s.position
    )
    if missing:
        raise UserError(
            _("Every player at the table needs a rack; missing: %(players)s."),
            field="racks",
            players=", ".join(s.player.name for s in missing),
        )
    return result


def game_scored_now(
    *,
    match: Match,
    ending: str,
    racks: Sequence[rules.RackIn],
    ahead: GameAhead | None,
    seat_pairs: set[tuple[int, int]],
) -> tuple[dict[int, Seat], rules.GameOut]:
    """The seats and the scored game, from ``ahead`` while its seats (now
    ``seat_pairs``: player id and seat) and rules still hold."""
    if (
        ahead is not None
        and (ahead.match_id, ahead.ending, ahead.racks) == (match.pk, ending, tuple(racks))
        and ahead.rule_set == tournament_rules(match.round.tournament)
        and seat_pairs == {(pid, seat.position) for pid, seat in ahead.seats.items()}
    ):
        return ahead.seats, ahead.result
    seats = match_seats(match)
    return seats, game_scored(match=match, ending=ending, racks=racks, seats=seats)

"""Everything in Rackscore that has state.

Vocabulary:

* **Club**: a Rummikub club; players may belong to one (its members). Its
  organisers are its creator and co-organisers.
* **Season**: a club's evenings between two dates, with its counting rules;
  an evening is a tournament whose ``season`` names it.
* **ClubInvitation**: a user invited to co-organise a club.
* **Player**: a person who plays; known by name.
* **Tournament**: an event, a league season or a club-night series, with its
  rule set (joker penalty, tie policy, ranking, table points) and its plan
  (rounds, games per round, seating method).
* **Entry**: a player registered in a tournament, active or withdrawn.
* **Round**: one sitting of all matches; numbered from 1 within its tournament
  and belonging to a stage (qualifying, semi-final, final).
* **Match**: one table in one round, with an unguessable private token that
  lets whoever holds the printed QR code enter that match's results.
* **Seat**: a player at a match, position 1..4 (position 1 starts game 1).
* **Game**: one deal at one match, numbered from 1 within the match.
* **Rack**: what a player held when a game ended (tiles, or points + jokers),
  its value and the player's computed score in that game.
* **Adjustment**: an organiser's penalty or bonus (or a bye's score), with a
  reason; kept apart from game scores.
* **AuditEvent**: one change to a tournament, who made it, old and new values;
  a game's events are its history (with snapshots of its racks).
* **CoOrganiserInvitation**: a user invited to co-organise a tournament, until
  they accept or decline (or the owner withdraws it).
* **TournamentDeletion**: who deleted which tournament, when; it outlives the
  tournament and its trail.
* **IdempotencyKey**: an API client's key for one write and the answer it got.
* **GameRating**, **PlayerRating**, **RatingState**: ratings (``ratings``):
  a player's rating after each rated game, their current rating, and the row
  every rating write locks.
* **RestoreJob**: a large backup's restore, done by the task worker for the
  user who started it.

The event and who takes part are in ``event``; rounds and what is played in
them in ``play``; the audit trail and idempotency keys in ``trust``. Models
hold data and constraints only: writes go through ``services``, reads through
``selectors``.
"""

from tournaments.models.background import RestoreJob
from tournaments.models.club import ClubInvitation, Season
from tournaments.models.event import Club, CoOrganiserInvitation, Entry, Player, Tournament
from tournaments.models.play import (
    Adjustment,
    Game,
    Match,
    Rack,
    Round,
    Seat,
    match_token_digest,
    match_token_new,
    match_token_plausible,
)
from tournaments.models.ratings import GameRating, PlayerRating, RatingState
from tournaments.models.trust import AuditEvent, IdempotencyKey, TournamentDeletion

__all__ = [
    "Adjustment",
    "AuditEvent",
    "Club",
    "ClubInvitation",
    "CoOrganiserInvitation",
    "Entry",
    "Game",
    "GameRating",
    "IdempotencyKey",
    "Match",
    "Player",
    "PlayerRating",
    "Rack",
    "RatingState",
    "RestoreJob",
    "Round",
    "Season",
    "Seat",
    "Tournament",
    "TournamentDeletion",
    "match_token_digest",
    "match_token_new",
    "match_token_plausible",
]

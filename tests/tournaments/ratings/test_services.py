"""Ratings follow every write: each equals openskill's loop over the rated
games in the rating order (a full recomputation)."""

from __future__ import annotations

import datetime as dt
import gc
import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scoring.rules import RackIn
from tests.factories import TournamentFactory, UserFactory, round_play, seated_ids
from tests.tournaments.ratings.support import (
    assert_ratings_are_openskills,
    rating_locks,
    tournament_played,
)
from tournaments.backups.document import tournament_document
from tournaments.backups.restore import tournament_import
from tournaments.models import (
    AuditEvent,
    Entry,
    Game,
    GameRating,
    Player,
    PlayerRating,
    RatingState,
    Tournament,
)
from tournaments.ratings.replay import Book, GameToRate, Step
from tournaments.services import ratings
from tournaments.services.games import game_correct, game_delete, game_record
from tournaments.services.results import game_confirm, game_enter, game_restore
from tournaments.services.rounds import round_seat_next
from tournaments.services.tournaments import tournament_delete, tournament_update

pytestmark = pytest.mark.django_db


def same_players(t: Tournament, players: list[Player]) -> None:
    Entry.objects.bulk_create(Entry(tournament=t, player=p) for p in players)


def players_of(t: Tournament) -> list[Player]:
    return list(Player.objects.filter(entries__tournament=t).order_by("pk"))


def played_with(players: list[Player], *, rounds: int = 2, seed: int = 1, **kwargs) -> Tournament:
    t = TournamentFactory(rounds=rounds, games_per_round=2, owner__password=None, **kwargs)
    same_players(t, players)
    for _ in range(rounds):
        round_play(round_seat_next(tournament=t), seed=seed, games=2)
    return t


def test_recorded_games_move_ratings_as_openskill_does():
    t = tournament_played(players=10, rounds=3, date=dt.date(2026, 3, 1))
    assert assert_ratings_are_openskills() == 3 * 2 * 10
    assert ratings.ratings_recompute().differences == []
    assert Tournament.objects.get(pk=t.pk).rated


def test_an_older_tournament_recorded_later_takes_its_place_in_the_order():
    later = tournament_played(players=8, rounds=2, date=dt.date(2026, 5, 1))
    played_with(players_of(later), rounds=2, date=dt.date(2026, 4, 1))
    assert_ratings_are_openskills()
    assert ratings.ratings_recompute().differences == []


def test_a_lower_game_number_recorded_last_takes_its_place():
    t = tournament_played(players=4, rounds=1, games=0, date=dt.date(2026, 2, 2))
    match = t.round_set.get().matches.get()
    ids = seated_ids(match)
    for number, winner in ((3, 0), (4, 1), (1, 2), (2, 3)):
        game_record(
            match=match,
            number=number,
            ending="rummikub",
            racks=[RackIn(player=p, points=0 if i == winner else 5 + i) for i, p in enumerate(ids)],
        )
    assert_ratings_are_openskills()


def test_a_correction_a_deletion_and_a_restore_each_equal_a_full_recomputation():
    first = tournament_played(players=8, rounds=2, date=dt.date(2026, 1, 10))
    played_with(players_of(first), rounds=2, date=dt.date(2026, 1, 20))
    game = Game.objects.filter(match__round__tournament=first).order_by("pk").first()
    assert game is not None
    ids = seated_ids(game.match)
    game_correct(
        game=game,
        ending="rummikub",
        racks=[RackIn(player=p, points=0 if i == 3 else 40) for i, p in enumerate(ids)],
    )
    assert_ratings_are_openskills()
    game_delete(game=game)
    assert not GameRating.objects.filter(game_id=game.pk).exists()
    assert_ratings_are_openskills()
    event = AuditEvent.objects.filter(action=AuditEvent.Action.GAME_DELETED).latest("pk")
    game_restore(event=event, user=None)
    assert GameRating.objects.filter(game_id=game.pk).count() == len(ids)
    assert_ratings_are_openskills()
    assert ratings.ratings_recompute().differences == []


def test_a_bulk_replay_writes_what_a_row_by_row_one_does(monkeypatch):
    """Past ``BULK_GAMES`` games a replay writes its rows in bulk (PostgreSQL's
    COPY as the games are rated; SQLite's lookup indexes built after the rows):
    the same ratings, and the indexes are there again."""
    first = tournament_played(players=8, rounds=2, date=dt.date(2026, 1, 10))
    played_with(players_of(first), rounds=2, date=dt.date(2026, 1, 20))
    monkeypatch.setattr(ratings, "BULK_GAMES", 3)
    assert ratings.ratings_rebuild() == GameRating.objects.count() > 3 * 4
    assert_ratings_are_openskills()
    game = Game.objects.filter(match__round__tournament=first).order_by("pk").first()
    assert game is not None
    ids = seated_ids(game.match)
    game_correct(
        game=game,
        ending="rummikub",
        racks=[RackIn(player=p, points=0 if i == 3 else 40) for i, p in enumerate(ids)],
    )
    assert_ratings_are_openskills()
    assert ratings.ratings_recompute().differences == []
    names = {index.name for index in GameRating._meta.indexes}
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, GameRating._meta.db_table)
    assert names <= {name for name, about in found.items() if about["index"]}


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_set_back_as_it_was_after_a_replay(enabled):
    """A replay and a recomputation hold the collector off while they run,
    then leave it as they found it (paused inside, and on again only if it was)."""
    tournament_played(players=4, rounds=1, date=dt.date(2026, 1, 10))
    seen: list[bool] = []
    book_play = Book.play

    def play(book: Book, game: GameToRate) -> list[Step]:
        seen.append(gc.isenabled())
        return book_play(book, game)

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Book, "play", play)
            ratings.ratings_rebuild()
            assert gc.isenabled() is enabled
            assert ratings.ratings_recompute().differences == []
            assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)


def test_a_replay_past_the_named_tournaments_reads_them_all_and_keeps_its_start(monkeypatch):
    """A replay of more tournaments than it names one by one reads every
    rated one (SQLite: the games and the racks apart, matched in Python) and
    rates only the games from its start on: the same ratings."""
    first = tournament_played(players=8, rounds=2, date=dt.date(2026, 1, 10))
    played_with(players_of(first), rounds=2, date=dt.date(2026, 1, 20))
    monkeypatch.setattr(ratings, "_NAMED_MAX", 0)
    game = Game.objects.filter(match__round__tournament=first).order_by("-pk").first()
    assert game is not None
    ids = seated_ids(game.match)
    game_correct(
        game=game,
        ending="rummikub",
        racks=[RackIn(player=p, points=0 if i == 0 else 25) for i, p in enumerate(ids)],
    )
    assert_ratings_are_openskills()
    assert ratings.ratings_recompute().differences == []


def test_a_private_tournament_never_moves_a_rating():
    t = tournament_played(players=8, rounds=2, public=False)
    assert not GameRating.objects.exists()
    assert not PlayerRating.objects.exists()
    played_with(players_of(t), rounds=1, rated=False)
    assert not PlayerRating.objects.exists()


def test_made_private_unrated_or_moved_the_ratings_replay():
    owner = UserFactory()
    early = tournament_played(players=8, rounds=2, date=dt.date(2026, 6, 1), owner=owner)
    played_with(players_of(early), rounds=2, date=dt.date(2026, 7, 1))
    before = assert_ratings_are_openskills()
    tournament_update(tournament=early, user=owner, public=False)
    assert assert_ratings_are_openskills() == before // 2
    tournament_update(tournament=early, user=owner, public=True)
    assert assert_ratings_are_openskills() == before
    tournament_update(tournament=early, user=owner, date=dt.date(2026, 8, 1))
    assert_ratings_are_openskills()
    tournament_update(tournament=early, user=owner, rated=False)
    assert assert_ratings_are_openskills() == before // 2
    tournament_update(tournament=early, user=owner, rated=True)
    tournament_delete(tournament=early, user=owner)
    assert assert_ratings_are_openskills() == before // 2


@pytest.mark.parametrize("confirmation", ["organiser", "double_entry"])
def test_only_confirmed_games_count(confirmation):
    owner = UserFactory()
    t = tournament_played(players=4, rounds=1, games=0, confirmation=confirmation, owner=owner)
    match = t.round_set.get().matches.get()
    ids = seated_ids(match)
    racks = [RackIn(player=p, points=0 if i == 0 else 9) for i, p in enumerate(ids)]
    # Entered by a player's phone (a user who does not organise it).
    entered = game_enter(
        match=match, ending="rummikub", racks=racks, number=1, user=UserFactory()
    ).game
    assert entered.state == Game.State.ENTERED
    assert not PlayerRating.objects.exists()
    if confirmation == "organiser":
        game_confirm(game=entered, user=owner)
    else:
        second = game_enter(match=match, ending="rummikub", racks=racks, number=1, user=owner)
        assert second.outcome == "confirmed"
    assert PlayerRating.objects.count() == 4
    assert_ratings_are_openskills()


def test_a_settled_dispute_counts_the_version_that_stands():
    owner = UserFactory()
    t = tournament_played(players=4, rounds=1, games=0, confirmation="double_entry", owner=owner)
    match = t.round_set.get().matches.get()
    ids = seated_ids(match)
    game_enter(
        match=match,
        ending="rummikub",
        number=1,
        racks=[RackIn(player=p, points=0 if i == 0 else 9) for i, p in enumerate(ids)],
    )
    disputed = game_enter(
        match=match,
        ending="rummikub",
        number=1,
        user=owner,
        racks=[RackIn(player=p, points=0 if i == 1 else 9) for i, p in enumerate(ids)],
    ).game
    assert disputed.state == Game.State.DISPUTED
    assert not PlayerRating.objects.exists()
    game_confirm(game=disputed, user=owner, take="second")
    assert_ratings_are_openskills()
    best = PlayerRating.objects.order_by("-mu").first()
    assert best is not None and best.player_id == ids[1]


def test_a_restored_backup_is_rated_in_its_place():
    owner = UserFactory()
    t = tournament_played(players=8, rounds=2, date=dt.date(2026, 9, 1), owner=owner)
    document = tournament_document(tournament=t)
    tournament_played(players=8, rounds=1, date=dt.date(2026, 10, 1))
    restored = tournament_import(document=document, owner=owner, slug="restored-copy")
    assert GameRating.objects.filter(tournament=restored).exists()
    assert_ratings_are_openskills()


def test_a_long_replay_runs_in_the_background_after_the_write(
    monkeypatch, django_capture_on_commit_callbacks
):
    owner = UserFactory()
    early = tournament_played(players=8, rounds=2, date=dt.date(2026, 6, 1), owner=owner)
    played_with(players_of(early), rounds=2, date=dt.date(2026, 7, 1))
    monkeypatch.setattr(ratings, "REPLAY_INLINE_ROWS", 10)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        tournament_update(tournament=early, user=owner, public=False)
    # Until the worker has run, the ratings stand as they were and the replay waits.
    assert GameRating.objects.filter(tournament=early).exists()
    assert RatingState.objects.get().pending is not None
    assert len(callbacks) == 1
    callbacks[0]()
    assert RatingState.objects.get().pending is None
    assert not GameRating.objects.filter(tournament=early).exists()
    assert_ratings_are_openskills()


def test_the_recomputation_finds_a_stored_difference_and_fixes_it():
    tournament_played(players=8, rounds=1)
    row = PlayerRating.objects.first()
    assert row is not None
    PlayerRating.objects.filter(pk=row.pk).update(mu=row.mu + 1)
    report = ratings.ratings_recompute()
    assert len(report.differences) == 1
    assert ratings.ratings_recompute(fix=True).differences
    assert ratings.ratings_recompute().differences == []
    assert_ratings_are_openskills()


def test_a_recorded_game_moves_its_players_in_four_queries(django_assert_num_queries):
    t = tournament_played(players=8, rounds=1, games=0)
    match = t.round_set.get().matches.order_by("table").first()
    assert match is not None
    ids = seated_ids(match)
    game = game_record(
        match=match,
        ending="rummikub",
        racks=[RackIn(player=p, points=0 if i == 0 else 7) for i, p in enumerate(ids)],
    )
    GameRating.objects.all().delete()
    PlayerRating.objects.all().delete()
    racks = list(game.racks.order_by("position"))
    # The lock, its players' ratings (with whether a row of theirs lies ahead), the new
    # rows, the ratings stored (players rated for the first time).
    with django_assert_num_queries(4 + rating_locks()):
        ratings.rating_game_changed(game=game, racks=racks)
    assert_ratings_are_openskills()


def test_the_command_reports_no_difference_then_one_then_fixes_it():
    tournament_played(players=4, rounds=1)
    out = io.StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "no difference" in out.getvalue()
    PlayerRating.objects.update(games=99)
    with pytest.raises(CommandError, match="4 differences"):
        call_command("ratings_recompute", stdout=io.StringIO())
    call_command("ratings_recompute", "--fix", stdout=io.StringIO())
    first = PlayerRating.objects.order_by("player_id").first()
    assert first is not None
    PlayerRating.objects.filter(pk=first.pk).update(games=99)
    out = io.StringIO()
    with pytest.raises(CommandError, match=r": 1 difference \("):
        call_command("ratings_recompute", stdout=out)
    assert f"player {first.player_id}: stored " in out.getvalue()
    assert "after 99 games; computed" in out.getvalue()
    assert "Standing(" not in out.getvalue()
    out = io.StringIO()
    call_command("ratings_recompute", "--fix", stdout=out)
    assert "now stored as recomputed" in out.getvalue()
    assert_ratings_are_openskills()

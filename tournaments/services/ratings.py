"""Rating services: ratings follow every write that changes what counts (design §6).

Vocabulary: a game is *rated* when its tournament is rated and public and the
game is confirmed. The *rating order* ranks rated games by their *key*:
the tournament's *sort date* (its date, or its creation day in the site's time
zone), the tournament, the round number, the table, the game number. A
*replay from* a key throws away every rating row at or after it and rates
again, in order, every rated game from there, each player starting from their
last row before it; a *full recomputation* is the replay from the start.

* ``rating_game_changed``: a game was recorded, corrected, confirmed or
  restored. When it is the last rated game of each of its players (the usual
  case: a game recorded now) its players move on at once, inside the
  recording's transaction (three queries on PostgreSQL, four on SQLite);
  otherwise the ratings are replayed from it.
* ``ratings_replay_from``: a write took games out of the order or moved them
  (a game deleted, a tournament deleted, made private or unrated, its date
  changed, a backup restored into an earlier date). A replay of more than
  ``REPLAY_INLINE_ROWS`` rating rows is handed to the task worker
  (``ratings_background_use``) after the write commits; until it has run the
  pages show the ratings as they were.
* ``ratings_recompute``: the full recomputation, compared with what is
  stored; ``ratings_rebuild`` stores it. Rating rows are read and written
  with one statement each (``rated_games``, ``_rows_store``), not as model
  instances: a full recomputation moves 400,000 of them.

Every rating write first locks the one ``RatingState`` row: a replay for
itself alone; a game moving its players on shares it with the other games
moving on at once and locks its players (``PLAYER_LOCKS``), so two games at
different tables never wait for each other and no update is lost. Ratings
are derived data: the writes that move them are audited in their own services.
"""

from __future__ import annotations

import datetime
import gc
import json
import zoneinfo
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, FloatField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Cast
from django.utils import timezone

from tournaments.models import (
    Game,
    GameRating,
    Match,
    PlayerRating,
    Rack,
    RatingState,
    Round,
    Tournament,
)
from tournaments.ratings.engine import shown
from tournaments.ratings.replay import Book, GameToRate, Standing, Step
from tournaments.selectors.statement_rows import rows_as_given

# A replay rewriting more rating rows than this (about 2,000 four-player games)
# runs in the background.
REPLAY_INLINE_ROWS = 8000
_CHUNK = 5000

Key = tuple[datetime.date, int, int, int, int]


def _site_zone() -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def tournament_sort_date(tournament: Tournament) -> datetime.date:
    """The tournament's place in the rating order: its date, or its creation
    day in the site's time zone."""
    if tournament.date is not None:
        return tournament.date
    return timezone.localtime(tournament.created, _site_zone()).date()


def tournament_key(tournament: Tournament) -> Key:
    """The key before every game of the tournament."""
    return (tournament_sort_date(tournament), tournament.pk, 0, 0, 0)


def game_key(game: Game) -> Key:
    """The game's key (reads its match, round and tournament)."""
    match = game.match
    round_ = match.round
    return (
        tournament_sort_date(round_.tournament),
        round_.tournament_id,
        round_.number,
        match.table,
        game.number,
    )


def game_rated(game: Game) -> bool:
    tournament = game.match.round.tournament
    return tournament.rated and tournament.public and game.state == Game.State.CONFIRMED


def key_place(key: Key) -> str:
    """A key as one text that sorts as the rating order does (``GameRating.place``)."""
    d, t, r, tb, g = key
    return f"{d.isoformat()}/{t:012d}/{r:05d}/{tb:05d}/{g:05d}"


def _from_q(key: Key) -> Q:
    """Rating rows at or after ``key`` in the rating order."""
    return Q(place__gte=key_place(key))


# -- the background hand-off ---------------------------------------------------------

_background: Callable[[], None] | None = None


def ratings_background_use(enqueue: Callable[[], None]) -> None:
    """How a long replay reaches the task worker (``tasks.ratings_replay_enqueue``,
    set when the app starts); without it every replay runs inline."""
    global _background
    _background = enqueue


# Where PostgreSQL's advisory locks that stand for players begin while a game
# moves them on (``_pending_shared``: the lock of player ``p`` is this plus
# ``p``, in the players' order). Replays lock the whole state instead, and
# nothing else takes an advisory lock.
PLAYER_LOCKS = 0x52617465 << 32
# The players' locks, in the order given (``unnest`` keeps it): ``PLAYER_LOCKS``
# and the players' ids as parameters.
_PLAYERS_LOCK_SQL = "SELECT count(pg_advisory_xact_lock(%s + p)) FROM unnest(%s::bigint[]) AS p"


def _state_locked() -> RatingState:
    """The state row, locked for this transaction alone: a replay, a queued one."""
    state = RatingState.objects.select_for_update().filter(pk=1).first()
    if state is None:
        RatingState.objects.get_or_create(pk=1)
        state = RatingState.objects.select_for_update().get(pk=1)
    return state


def _state_taken_now() -> bool:
    """Whether the state row, held shared, could be taken for this transaction
    alone without waiting (PostgreSQL's ``SKIP LOCKED``: a row others hold is
    not returned; SQLite holds it already)."""
    if connection.vendor != "postgresql":
        return True
    taken = RatingState.objects.select_for_update(skip_locked=True).filter(pk=1)
    return bool(list(taken.values_list("pk", flat=True)))


def _replay_after(key: Key) -> None:
    """A replay a game's write left for after its commit, in its own transaction."""
    with transaction.atomic():
        ratings_replay_from(key=key)


# The statements a game moving its players on runs (the recording's path: a few
# hundred times a second on a busy evening), written out once per database.
@dataclass(frozen=True)
class _AppendSql:
    """The state's waiting replay (locked shared; on PostgreSQL with the
    players' locks in the same statement), the players' ratings with whether
    each has a row from a place on, and the upsert of the players' new
    ratings. On PostgreSQL the upsert takes the game's rating rows with it,
    both over arrays (``unnest``): the same text for every table size,
    prepared once per connection; SQLite inserts the rows first
    (``_rows_insert_sql``)."""

    read_state: str
    read_players: str
    upsert: str


_APPEND_SQL: dict[str, _AppendSql] = {}


def _append_sql() -> _AppendSql:
    """The statements for this connection's database."""
    vendor = connection.vendor
    found = _APPEND_SQL.get(vendor)
    if found is not None:
        return found
    q = connection.ops.quote_name
    state = q(RatingState._meta.db_table)
    current = q(PlayerRating._meta.db_table)
    rows = q(GameRating._meta.db_table)
    postgres = vendor == "postgresql"
    upsert_head = f"INSERT INTO {current} (player_id, mu, sigma, rating, games) "
    upsert_tail = (
        " ON CONFLICT (player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "rating = excluded.rating, games = excluded.games"
    )
    if postgres:
        # The players' advisory locks, in the order given, with the state's
        # share lock: the read after both (the next statement) sees every
        # game that held them.
        read_state = (
            f"SELECT pending::text, ({_PLAYERS_LOCK_SQL}) FROM {state} WHERE id = 1 FOR SHARE"
        )
        # The game's rows: its place once, its players' steps as arrays.
        rows_sql = (
            f"INSERT INTO {_rows_columns()} SELECT %s::bigint, s.player, s.mu, s.sigma, "
            "s.rating, %s::bigint, %s::date, %s::text "
            "FROM unnest(%s::bigint[], %s::float8[], %s::float8[], %s::int[]) "
            "AS s(player, mu, sigma, rating)"
        )
        upsert = (
            f"WITH moved AS ({rows_sql}) {upsert_head}SELECT * FROM unnest(%s::bigint[], "
            "%s::float8[], %s::float8[], %s::int[], %s::int[])" + upsert_tail
        )
    else:
        read_state = f"SELECT pending FROM {state} WHERE id = 1"
        upsert = upsert_head + "VALUES {values}" + upsert_tail
    read_players = (
        f"SELECT p.player_id, p.mu, p.sigma, p.games, EXISTS (SELECT 1 FROM {rows} g "
        f"WHERE g.player_id = p.player_id AND g.place >= %s) FROM {current} p "
        "WHERE p.player_id IN ({marks}) ORDER BY p.player_id"
    )
    _APPEND_SQL[vendor] = found = _AppendSql(read_state, read_players, upsert)
    return found


def _players_lock(ordered: Sequence[int]) -> None:
    """The players' advisory locks on PostgreSQL, in the order given (``unnest``
    keeps it): two games of one player wait for each other."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_PLAYERS_LOCK_SQL, [PLAYER_LOCKS, list(ordered)])


def _pending_shared(players: Sequence[int]) -> tuple[Key, set[int]] | None:
    """The waiting replay, the state row locked against a replay but shared
    with every other game moving on at once (PostgreSQL's ``FOR SHARE``;
    SQLite runs one write at a time anyway): games at different tables never
    wait for each other. The ``players`` are locked with it, in one order
    (no two games wait for each other). Before the first rating write ever,
    the row is made."""
    sql = _append_sql()
    ordered = sorted(set(players))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(sql.read_state, [PLAYER_LOCKS, ordered])
        else:
            cursor.execute(sql.read_state)
        row = cursor.fetchone()
    if row is None:
        pending = _state_locked().pending
        _players_lock(ordered)
        return _pending_of(pending)
    return _pending_of(json.loads(row[0]) if row[0] is not None else None)


def _players_read(players: Sequence[int], place: str) -> list[tuple[int, float, float, int, bool]]:
    """The players' ratings (locked by ``_pending_shared``), and whether each
    has a rating row at or after ``place``. On PostgreSQL the lock is the
    player's own (a transaction-level advisory lock, ``PLAYER_LOCKS``), not
    their rating row's: a player not rated yet has no row, and two games of
    theirs still wait for each other as two games of a rated player do, so
    neither needs the rating state to itself (a round's first games, all of
    new players, would otherwise take turns for it). Read in a statement of
    its own, after the locks: a read that waited for a lock would see the
    other game's ratings but not its rating rows (its snapshot was taken
    before), and miss that a replay is due."""
    ordered = sorted(set(players))
    marks = ", ".join(["%s"] * len(ordered))
    with connection.cursor() as cursor:
        cursor.execute(_append_sql().read_players.format(marks=marks), [place, *ordered])
        return [
            (int(p), float(mu), float(sigma), int(n), bool(placed))
            for p, mu, sigma, n, placed in cursor.fetchall()
        ]


def _moved_on_store(key: Key, steps: Sequence[Step], standings: dict[int, Standing]) -> None:
    """A game's rating rows and its players' new ratings: one statement on
    PostgreSQL (the rows inserted in a ``WITH`` of the ratings' upsert), two on
    SQLite."""
    sql = _append_sql()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                sql.upsert,
                [
                    steps[0].game,
                    key[1],
                    key[0],
                    key_place(key),
                    [s.player for s in steps],
                    [s.mu for s in steps],
                    [s.sigma for s in steps],
                    [s.rating for s in steps],
                    list(standings),
                    [s.mu for s in standings.values()],
                    [s.sigma for s in standings.values()],
                    [s.rating for s in standings.values()],
                    [s.games for s in standings.values()],
                ],
            )
            return
        head, marks = _rows_insert_sql()
        rows = list(_rows_of([(key, steps)]))
        cursor.execute(head + ", ".join([marks] * len(rows)), [v for row in rows for v in row])
        params: list[Any] = []
        for p, s in standings.items():
            params += [p, s.mu, s.sigma, s.rating, s.games]
        cursor.execute(
            sql.upsert.format(values=", ".join(["(%s, %s, %s, %s, %s)"] * len(standings))), params
        )


def _pending_of(value: Any) -> tuple[Key, set[int]] | None:
    """The waiting replay: where it starts and the players whose rows went
    with a deleted game or tournament."""
    if not isinstance(value, dict):
        return None
    k = value["key"]
    key = (datetime.date.fromisoformat(k[0]), int(k[1]), int(k[2]), int(k[3]), int(k[4]))
    return key, {int(p) for p in value["players"]}


def _pending_json(key: Key, players: Collection[int]) -> dict[str, Any]:
    return {"key": [key[0].isoformat(), *key[1:]], "players": sorted(players)}


# -- reading the rated games -----------------------------------------------------------


def _tournament_dates(key: Key | None) -> dict[int, datetime.date]:
    """The rated, public tournaments (at or after ``key``'s) and their sort dates."""
    zone = _site_zone()
    dates: dict[int, datetime.date] = {}
    rows = Tournament.objects.filter(rated=True, public=True).values_list("pk", "date", "created")
    for pk, day, created in rows:
        d = day if day is not None else timezone.localtime(created, zone).date()
        if key is None or (d, pk) >= key[:2]:
            dates[pk] = d
    return dates


# A replay's tournaments named one by one up to this many; beyond, all rated ones are read.
_NAMED_MAX = 500


def _rated_all_read(dates: dict[int, datetime.date]) -> Iterator[tuple[GameToRate, Key]]:
    """The rated games of the tournaments in ``dates`` with their keys, each
    tournament's in its own order (``_racks_statement(None)`` as
    ``_games_of_racks`` reads it), written out for SQLite in two statements:
    the confirmed games of the rated tournaments with their places (100,000
    for a full recomputation: the joins once per game, not once per rack),
    and every rack in the order of its unique index (game, seat), read
    without a sort and matched to its game here. One
    statement joining each of 400,000 racks to its game, match, round and
    tournament and sorting them took twice as long."""
    q = connection.ops.quote_name
    rack, game, match = (q(m._meta.db_table) for m in (Rack, Game, Match))
    round_, tournament = q(Round._meta.db_table), q(Tournament._meta.db_table)
    games_sql = (
        f"SELECT g.{q('id')}, r.{q('tournament_id')}, r.{q('number')}, m.{q('table')}, "
        f"g.{q('number')} FROM {game} g "
        f"CROSS JOIN {match} m ON m.{q('id')} = g.{q('match_id')} "
        f"CROSS JOIN {round_} r ON r.{q('id')} = m.{q('round_id')} "
        f"CROSS JOIN {tournament} t ON t.{q('id')} = r.{q('tournament_id')} "
        f"WHERE g.{q('state')} = %s AND t.{q('rated')} AND t.{q('public')} "
        "ORDER BY 2, 3, 4, 5, 1"
    )
    racks_sql = (
        f"SELECT {q('game_id')}, {q('player_id')}, CAST({q('score')} AS REAL) FROM {rack} "
        f"ORDER BY {q('game_id')}, {q('position')}"
    )
    seated: dict[int, tuple[list[int], list[float]]] = {}
    with connection.cursor() as cursor:
        cursor.execute(games_sql, [Game.State.CONFIRMED])
        games: list[tuple[int, int, int, int, int]] = cursor.fetchall()
        cursor.execute(racks_sql)
        current = None
        players: list[int] = []
        scores: list[float] = []
        for game_id, player_id, score in cursor.fetchall():
            if game_id != current:
                current = game_id
                players, scores = [], []
                seated[game_id] = (players, scores)
            players.append(player_id)
            scores.append(score)
    for game_id, t, r, tb, g in games:
        d = dates.get(t)
        found = seated.get(game_id)
        if d is not None and found is not None:
            yield GameToRate(game_id, tuple(found[0]), tuple(found[1])), (d, t, r, tb, g)


def _racks_statement(tournaments: list[int] | None) -> QuerySet[Rack, tuple[Any, ...]]:
    """The confirmed racks of the named ``tournaments`` (None: of every rated
    one), as ``rated_games`` reads them: game, player, score as a float (as
    the engine takes it, not a Decimal per rack), tournament, round, table,
    game number; each tournament's in its own order (round, table, game,
    seat)."""
    racks = Rack.objects.filter(game__state=Game.State.CONFIRMED)
    if tournaments is not None:
        racks = racks.filter(game__match__round__tournament_id__in=tournaments)
    else:
        racks = racks.filter(
            game__match__round__tournament__rated=True, game__match__round__tournament__public=True
        )
    order = (
        "game__match__round__tournament_id",
        "game__match__round__number",
        "game__match__table",
        "game__number",
        "game_id",
        "position",
    )
    return (
        racks.order_by(*order)
        .annotate(score_float=Cast("score", FloatField()))
        .values_list("game_id", "player_id", "score_float", *order[:4])
    )


def _games_of_racks(
    rows: Iterable[tuple[Any, ...]], dates: dict[int, datetime.date]
) -> Iterator[tuple[GameToRate, Key]]:
    """The games of ``_racks_statement``'s rows (a game's racks one after
    another) whose tournaments are in ``dates``, with their keys."""
    players: list[int] = []
    scores: list[float] = []
    current: tuple[int, Key] | None = None
    for game_id, player_id, score, t, r, tb, g in rows:
        if current is None or game_id != current[0]:
            if current is not None:
                yield GameToRate(current[0], tuple(players), tuple(scores)), current[1]
            players, scores = [], []
            d = dates.get(t)
            current = None if d is None else (game_id, (d, t, r, tb, g))
            if current is None:
                continue
        players.append(player_id)
        scores.append(float(score))
    if current is not None:
        yield GameToRate(current[0], tuple(players), tuple(scores)), current[1]


def _in_rating_order(
    games: Iterable[tuple[GameToRate, Key]], dates: dict[int, datetime.date], key: Key | None
) -> list[tuple[GameToRate, Key]]:
    """The ``games`` at or after ``key`` (each tournament's in its own order),
    the tournaments put in theirs (their sort dates, then ids)."""
    by_tournament: dict[int, list[tuple[GameToRate, Key]]] = {}
    for game, k in games:
        if key is None or k >= key:
            by_tournament.setdefault(k[1], []).append((game, k))
    placed: list[tuple[GameToRate, Key]] = []
    for t in sorted(by_tournament, key=lambda t: (dates[t], t)):
        placed.extend(by_tournament[t])
    return placed


def rated_games(key: Key | None = None) -> list[tuple[GameToRate, Key]]:
    """Every rated game at or after ``key`` (all: None), in the rating order;
    two queries (three on SQLite when it reads every tournament). The racks are
    read as the database gives them (no model rows: a full recomputation reads
    400,000), each tournament's in its own order (round, table, game, seat),
    and the tournaments put in theirs here."""
    dates = _tournament_dates(key)
    if not dates:
        return []
    named = key is not None and len(dates) <= _NAMED_MAX
    if connection.vendor == "sqlite" and not named:
        games = _rated_all_read(dates)
    else:
        rows = rows_as_given(_racks_statement(list(dates) if named else None))
        games = _games_of_racks(rows, dates)
    return _in_rating_order(games, dates, key)


# -- writing ---------------------------------------------------------------------------


# A step's fields first, in ``Step``'s order, then the game's place: a row
# is its step and the game's place joined (``_rows_of``).
_ROW_FIELDS = (
    "game",
    "player",
    "mu",
    "sigma",
    "rating",
    "tournament",
    "sort_date",
    "place",
)


def _rows_columns() -> str:
    """The rating rows' table and its columns in ``_ROW_FIELDS``' order, as an
    insert or a ``COPY`` names them."""
    meta = GameRating._meta
    q = connection.ops.quote_name
    column = {f.name: f.column for f in meta.concrete_fields}
    return f"{q(meta.db_table)} ({', '.join(q(column[f]) for f in _ROW_FIELDS)})"


def _rows_insert_sql() -> tuple[str, str]:
    """The rating rows' insert up to ``VALUES``, and one row's marks."""
    marks = "(" + ", ".join(["%s"] * len(_ROW_FIELDS)) + ")"
    return f"INSERT INTO {_rows_columns()} VALUES ", marks


def _rows_of(played: Iterable[tuple[Key, Sequence[Step]]]) -> Iterator[tuple[Any, ...]]:
    """The rating rows of each game played (its key, its players' steps), as
    the insert takes them, one by one as the games come."""
    adapt = connection.ops.adapt_datefield_value
    day: dict[datetime.date, Any] = {}
    for k, steps in played:
        d = k[0]
        stored = day.get(d)
        if stored is None:
            stored = day[d] = adapt(d)
        where = (k[1], stored, key_place(k))
        for step in steps:
            yield step + where


# A replay of more games than this (a long one, a full recomputation) is a
# *bulk* write: PostgreSQL takes its rows by COPY as the games are rated, and
# SQLite builds its two lookup indexes after the rows rather than row by row
# (each about a third of such a write).
BULK_GAMES = 12_500


def _lookup_indexes_sql(*, create: bool) -> list[str]:
    """The rating rows' lookup indexes (``GameRating.Meta.indexes``: plain
    columns in ascending order) dropped or made again, as SQLite writes them."""
    q = connection.ops.quote_name
    meta = GameRating._meta
    column = {f.name: f.column for f in meta.concrete_fields}
    statements = []
    for index in meta.indexes:
        if not create:
            statements.append(f"DROP INDEX {q(index.name)}")
            continue
        columns = ", ".join(q(column[name]) for name in index.fields)
        statements.append(f"CREATE INDEX {q(index.name)} ON {q(meta.db_table)} ({columns})")
    return statements


def _rows_store(played: Iterable[tuple[Key, Sequence[Step]]], *, bulk: bool = False) -> int:
    """Insert the rating rows of each game played (its key, its players'
    steps), taken as they come: one statement run over all of them (model
    instances would cost most of it), or a ``bulk`` write (``BULK_GAMES``); the
    number of rows written."""
    head, marks = _rows_insert_sql()
    rows = _rows_of(played)
    written = 0
    with connection.cursor() as cursor:
        if bulk and connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {_rows_columns()} FROM STDIN") as copy:
                write = copy.write_row
                for row in rows:
                    write(row)
                    written += 1
            return written
        later = _lookup_indexes_sql(create=True) if bulk else []
        if later:
            for statement in _lookup_indexes_sql(create=False):
                cursor.execute(statement)
        while chunk := list(islice(rows, 50_000)):
            cursor.executemany(head + marks, chunk)
            written += len(chunk)
        for statement in later:
            cursor.execute(statement)
    return written


def _current_store(standings: dict[int, Standing], gone: Collection[int] = ()) -> None:
    if gone:
        PlayerRating.objects.filter(player_id__in=list(gone)).delete()
    rows = [
        PlayerRating(player_id=p, mu=s.mu, sigma=s.sigma, rating=s.rating, games=s.games)
        for p, s in standings.items()
    ]
    PlayerRating.objects.bulk_create(
        rows,
        batch_size=2000,
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "rating", "games"],
    )


def _standings_before(players: Sequence[int]) -> dict[int, Standing]:
    """Each player's last stored row and row count (rows after the replay's
    start are gone by now)."""
    found: dict[int, Standing] = {}
    latest = GameRating.objects.filter(player_id=OuterRef("player_id")).order_by("-place")
    for start in range(0, len(players), _CHUNK):
        chunk = players[start : start + _CHUNK]
        rows = (
            GameRating.objects.filter(player_id__in=chunk)
            .values("player_id")
            .annotate(
                n=Count("*"),
                last_mu=Subquery(latest.values("mu")[:1]),
                last_sigma=Subquery(latest.values("sigma")[:1]),
            )
            .values_list("player_id", "n", "last_mu", "last_sigma")
        )
        for player, n, mu, sigma in rows:
            found[player] = Standing(mu, sigma, n)
    return found


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off (``gc.disable``) while a
    replay runs, and set back as it was after. A full recomputation holds
    100,000 games and makes a million small objects (tuples, floats: no
    cycles among them), and each of the collector's full passes walked all of
    them, about a fifth of its time (SQLite, 100,000 games: 6.4-9.6 s with it,
    5.2-6.0 s without)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@_collector_paused()
def _replay(key: Key | None, players: Collection[int] = ()) -> int:
    """Replay from ``key`` (everything: None), the state row locked
    (``players``: whose rows went with a deleted game or tournament); the
    number of rating rows written."""
    old = GameRating.objects.all() if key is None else GameRating.objects.filter(_from_q(key))
    touched = set(players)
    if key is not None:
        touched.update(old.values_list("player_id", flat=True).distinct())
    if key is None:
        GameRating.objects.all().delete()
        PlayerRating.objects.all().delete()
    else:
        old.delete()
    placed = rated_games(key)
    for game, _key in placed:
        touched.update(game.players)
    start = _standings_before(sorted(touched)) if key is not None else {}
    book = Book.of(start)
    play = book.play
    written = _rows_store(((k, play(game)) for game, k in placed), bulk=len(placed) > BULK_GAMES)
    standings = book.standings()
    _current_store(standings, gone=[p for p in touched if p not in standings])
    return written


def ratings_replay_from(*, key: Key, players: Collection[int] = ()) -> None:
    """Replay the ratings from ``key`` (``players``: whose rows went with a
    deleted game or tournament): inline when short, else in the background
    after the write commits (a replay waiting already starts at the earlier of
    the two keys)."""
    state = _state_locked()
    pending = _pending_of(state.pending)
    if pending is not None:
        key, players = min(key, pending[0]), {*players, *pending[1]}
    if _background is not None and (
        pending is not None or GameRating.objects.filter(_from_q(key)).count() > REPLAY_INLINE_ROWS
    ):
        state.pending = _pending_json(key, players)
        state.save(update_fields=["pending"])
        if pending is None:
            transaction.on_commit(_background)
        return
    _replay(key, players)
    state.generation += 1
    state.save(update_fields=["generation"])


def ratings_replay_pending() -> None:
    """The background replay: from where the waiting replay starts (nothing
    when none waits)."""
    with transaction.atomic():
        state = _state_locked()
        pending = _pending_of(state.pending)
        if pending is None:
            return
        _replay(*pending)
        state.pending = None
        state.generation += 1
        state.save(update_fields=["pending", "generation"])


def rating_game_changed(*, game: Game, racks: Sequence[Rack] | None = None) -> None:
    """A game was recorded, corrected, confirmed or restored (``racks``: its
    racks, when the caller has them): move its players on, or replay from it.
    Runs inside the caller's transaction."""
    key = game_key(game)
    rated = game_rated(game)
    if racks is None:
        racks = list(Rack.objects.filter(game=game).order_by("position"))
    players = [r.player_id for r in racks]
    # Its players locked with the state (in one order: no two games wait for
    # each other; a player not rated yet is locked as the others are).
    pending = _pending_shared(players)
    if pending is not None and pending[0] <= key:
        return  # the replay waiting will rate it
    # Its players' ratings, and whether any has a row from this game on: its
    # own (rated before) or a later one. A player with a row has a rating.
    now = _players_read(players, key_place(key))
    if any(placed for *_, placed in now):
        if not _state_taken_now():
            # Other games share the state row; waiting for them could deadlock
            # with one waiting for these players: replay once this write commits.
            transaction.on_commit(partial(_replay_after, key), robust=True)
            return
        ratings_replay_from(key=key)
        return
    if not rated:
        return
    book = Book.of({p: Standing(mu, sigma, n) for p, mu, sigma, n, _ in now})
    steps = book.play(GameToRate(game.pk, tuple(players), tuple(float(r.score) for r in racks)))
    _moved_on_store(key, steps, book.standings(players))


def rating_tournament_changed(*, tournament: Tournament, before: Key) -> None:
    """A tournament's ``rated``, ``public`` or ``date`` changed (``before``: its
    key before the change): replay from the earlier of its two places, when it
    has a confirmed game or a rated one."""
    confirmed = Game.objects.filter(match__round__tournament=tournament, state=Game.State.CONFIRMED)
    if confirmed.exists() or tournament_rated_any(tournament):
        ratings_replay_from(key=min(before, tournament_key(tournament)))


@dataclass(frozen=True)
class RatedPlace:
    """Where a game or tournament about to be deleted stands in the rating
    order, and whose ratings it moved: what the replay after the deletion needs."""

    key: Key
    players: frozenset[int]


def tournament_rated_any(tournament: Tournament) -> bool:
    """Whether any game of the tournament moved a rating."""
    return GameRating.objects.filter(tournament=tournament).exists()


def _place(rows: QuerySet[GameRating], key: Key) -> RatedPlace | None:
    players = frozenset(rows.values_list("player_id", flat=True).distinct())
    return RatedPlace(key, players) if players else None


def rating_place(game: Game) -> RatedPlace | None:
    """The game's place when it moved a rating (read before deleting it), else None."""
    return _place(GameRating.objects.filter(game=game), game_key(game))


def tournament_rating_place(tournament: Tournament) -> RatedPlace | None:
    """The tournament's place when its games moved a rating (read before
    deleting it), else None."""
    return _place(GameRating.objects.filter(tournament=tournament), tournament_key(tournament))


def ratings_replay_after_deletion(*, place: RatedPlace | None) -> None:
    """The replay after deleting what ``rating_place`` or
    ``tournament_rating_place`` read (nothing for None)."""
    if place is not None:
        ratings_replay_from(key=place.key, players=place.players)


def rating_tournament_restored(*, tournament: Tournament) -> None:
    """A tournament came from a backup with its games: rate them in their place."""
    if tournament.rated and tournament.public:
        confirmed = Game.objects.filter(
            match__round__tournament=tournament, state=Game.State.CONFIRMED
        )
        if confirmed.exists():
            ratings_replay_from(key=tournament_key(tournament))


# -- the full recomputation ------------------------------------------------------------


def ratings_rebuild() -> int:
    """Recompute every rating from the start and store it, whatever is stored
    now; the number of rating rows written."""
    with transaction.atomic():
        state = _state_locked()
        rows = _replay(None)
        state.pending = None
        state.generation += 1
        state.save(update_fields=["pending", "generation"])
        return rows


@dataclass(frozen=True)
class RecomputeReport:
    """What a full recomputation found: rating rows and players compared, and
    the differences from what was stored (game, player: stored, computed)."""

    rows: int
    players: int
    differences: list[str]


def ratings_recompute(*, fix: bool = False, tolerance: float = 1e-9) -> RecomputeReport:
    """Recompute every rating from the start and compare it with what is stored;
    ``fix``: store the recomputation."""
    with transaction.atomic(), _collector_paused():
        _state_locked()
        book = Book()
        computed: dict[tuple[int, int], tuple[float, float, int, Key]] = {}
        for game, key in rated_games(None):
            for s in book.play(game):
                computed[(s.game, s.player)] = (s.mu, s.sigma, s.rating, key)
        differences: list[str] = []
        stored = GameRating.objects.values_list(
            "game_id",
            "player_id",
            "mu",
            "sigma",
            "rating",
            "sort_date",
            "tournament_id",
            "place",
        )
        seen: set[tuple[int, int]] = set()
        for g, p, mu, sigma, rating, *k, place in stored.iterator(chunk_size=10000):
            seen.add((g, p))
            want = computed.get((g, p))
            if want is None:
                differences.append(f"game {g}, player {p}: stored but not rated")
                continue
            if (
                abs(want[0] - mu) > tolerance
                or abs(want[1] - sigma) > tolerance
                or want[2] != rating
                or want[3][:2] != tuple(k)
                or place != key_place(want[3])
            ):
                differences.append(
                    f"game {g}, player {p}: stored {mu!r}, {sigma!r}, {rating}; "
                    f"computed {want[0]!r}, {want[1]!r}, {want[2]}"
                )
        differences.extend(
            f"game {g}, player {p}: rated but not stored" for g, p in computed.keys() - seen
        )
        standings = book.standings()
        current = {
            p: (mu, sigma, rating, games)
            for p, mu, sigma, rating, games in PlayerRating.objects.values_list(
                "player_id", "mu", "sigma", "rating", "games"
            )
        }
        for p in current.keys() | standings.keys():
            have, want_s = current.get(p), standings.get(p)
            if have is None or want_s is None:
                differences.append(
                    f"player {p}: current rating {'missing' if have is None else 'extra'}"
                )
            elif (
                abs(have[0] - want_s.mu) > tolerance
                or abs(have[1] - want_s.sigma) > tolerance
                or have[2] != shown(want_s.mu, want_s.sigma)
                or have[3] != want_s.games
            ):
                differences.append(
                    f"player {p}: stored {have[0]!r}, {have[1]!r}, {have[2]} after "
                    f"{have[3]} games; computed {want_s.mu!r}, {want_s.sigma!r}, "
                    f"{want_s.rating} after {want_s.games} games"
                )
        if fix and differences:
            ratings_rebuild()
        return RecomputeReport(rows=len(computed), players=len(standings), differences=differences)

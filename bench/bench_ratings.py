"""Ratings: a full recomputation of 100,000 four-player games, a game's update
inside its recording, a correction far back replayed in the background, and
the backtest of the model, on SQLite; then a full recomputation of 1,000,000
games on PostgreSQL (when the local cluster can run: ``scripts/postgres-up.sh``).

Builds 100 tournaments in a temporary SQLite database (bulk inserts: 1,000
players, each tournament 100 of them over 10 rounds of 25 tables and 4
games: 100,000 games, 400,000 racks), dealt from a simulated population whose
skills are known. Then times:

* the anchor: openskill's own ``PlackettLuce.rate`` over the same games in
  the same order, nothing stored; and the engine's replay of them, also
  nothing stored;
* the full recomputation with storage (``services.ratings.ratings_rebuild``:
  the games read, rated, 400,000 rating rows and 1,000 current ratings
  written). The bars: under 10 s, and no slower than the anchor;
* a game recorded through ``game_record`` in a new tournament (the rating
  update inside the recording's transaction timed on its own). The bar:
  under 5 ms;
* a correction of the very first game: its replay of 100,000 games handed to
  the task worker (here the immediate backend: the replay runs when the
  correction commits). The bar: under 15 s;
* the backtest: ratings from the first 80 % of the games predict the order
  of every pair of players at each table of the rest, against two baselines
  (the average score so far; a coin), and the final ratings' correlation with
  the true skills; the same on the demo tournament's games.

The PostgreSQL part (``--postgres``, a process of its own on a scratch
database) builds 1,000 such tournaments (1,000,000 games, 4,000,000 racks;
``BENCH_RATINGS_PG_TOURNAMENTS`` fewer) and times the full recomputation
with storage. The bar: under 100 s.

Prints a table and exits 1 when a bar is missed. Run it with ``make bench``
(or ``python bench/bench_ratings.py`` from the project root).
"""

from __future__ import annotations

import datetime as dt
import math
import os
import random
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from decimal import Decimal
from typing import Any
from unittest import mock

os.environ["RACKSCORE_TASKS"] = "immediate"

from scratch import (
    django_on_scratch_postgres,
    django_on_scratch_sqlite,
    postgres_server,
    scratch_postgres_drop,
)

POSTGRES = "--postgres" in sys.argv
if POSTGRES:
    django_on_scratch_postgres(os.environ["BENCH_PG_SERVER"], os.environ["BENCH_PG_NAME"])
    WORKDIR = None
else:
    WORKDIR = django_on_scratch_sqlite()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from openskill.models import PlackettLuce  # noqa: E402

from scoring.rules import RackIn  # noqa: E402
from tournaments import demo, tasks  # noqa: E402
from tournaments.models import (  # noqa: E402
    Entry,
    Game,
    GameRating,
    Match,
    Player,
    Rack,
    Round,
    Seat,
    Tournament,
)
from tournaments.ratings.replay import Book, GameToRate  # noqa: E402
from tournaments.services import games as game_services  # noqa: E402
from tournaments.services import ratings  # noqa: E402

PLAYERS = 1000
# 100 tournaments of 1,000 games; fewer with BENCH_RATINGS_TOURNAMENTS (a quick look).
TOURNAMENTS = int(os.environ.get("BENCH_RATINGS_TOURNAMENTS", "100"))
# 1,000 of them on PostgreSQL: 1,000,000 games.
PG_TOURNAMENTS = int(os.environ.get("BENCH_RATINGS_PG_TOURNAMENTS", "1000"))
PG_REBUILD_LIMIT_S = 100.0
PER_TOURNAMENT = 100
ROUNDS = 10
GAMES = 4
REBUILD_LIMIT_S = 10.0
UPDATE_LIMIT_MS = 5.0
REPLAY_LIMIT_S = 15.0
RECORDED = 25
TRAIN = 0.8

SimGame = tuple[list[int], list[float]]


# ----------------------------------------------------------------------------- the population


def population(rng: random.Random, n: int) -> dict[int, float]:
    """Each simulated player's true skill (a standard normal)."""
    return {i: rng.gauss(0.0, 1.0) for i in range(n)}


def dealt(rng: random.Random, skills: Sequence[float]) -> list[float]:
    """A game's zero-sum scores from the players' skills: each plays at their
    skill plus a bad or good evening (noise twice the spread of skills); the
    best performance goes out and collects the others' rack values."""
    perf = [s + rng.gauss(0.0, 2.0) for s in skills]
    best = max(range(len(perf)), key=perf.__getitem__)
    left = [
        0 if i == best else max(1, round(25 - 8 * p + rng.gauss(0, 4))) for i, p in enumerate(perf)
    ]
    return [float(sum(left)) if i == best else float(-v) for i, v in enumerate(left)]


def simulated(
    rng: random.Random, tournaments: int = TOURNAMENTS
) -> tuple[dict[int, float], list[list[list[SimGame]]]]:
    """Skills, and per tournament, per round, the games of its tables
    (simulated player indexes, scores)."""
    skills = population(rng, PLAYERS)
    events: list[list[list[SimGame]]] = []
    for _ in range(tournaments):
        field = rng.sample(range(PLAYERS), PER_TOURNAMENT)
        rounds: list[list[SimGame]] = []
        for _round in range(ROUNDS):
            rng.shuffle(field)
            games: list[SimGame] = []
            for table in range(PER_TOURNAMENT // 4):
                seated = field[table * 4 : table * 4 + 4]
                for _game in range(GAMES):
                    games.append((seated, dealt(rng, [skills[p] for p in seated])))
            rounds.append(games)
        events.append(rounds)
    return skills, events


# ----------------------------------------------------------------------------- the database


def build(events: list[list[list[SimGame]]]) -> tuple[list[int], float]:
    """The simulated events as tournaments (bulk); the player ids by index."""
    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create(username="bench")
    with transaction.atomic():
        players = Player.objects.bulk_create(Player(name=f"Player {i:04d}") for i in range(PLAYERS))
        ids = [p.pk for p in players]
        day = dt.date(2024, 1, 6)
        for number, rounds in enumerate(events):
            t = Tournament.objects.create(
                name=f"Bench {number}",
                slug=f"bench-{number}",
                owner=owner,
                date=day + dt.timedelta(days=7 * number),
                rounds=ROUNDS,
                games_per_round=GAMES,
            )
            entered = {p for games in rounds for seated, _ in games for p in seated}
            Entry.objects.bulk_create(Entry(tournament=t, player_id=ids[p]) for p in entered)
            for r, games in enumerate(rounds, start=1):
                round_ = Round.objects.create(tournament=t, number=r, games_per_match=GAMES)
                tables = [games[i] for i in range(0, len(games), GAMES)]
                matches = Match.objects.bulk_create(
                    Match(round=round_, table=i + 1) for i in range(len(tables))
                )
                Seat.objects.bulk_create(
                    Seat(match=m, round=round_, player_id=ids[p], position=pos)
                    for m, (seated, _) in zip(matches, tables, strict=True)
                    for pos, p in enumerate(seated, start=1)
                )
                stored = Game.objects.bulk_create(
                    Game(match=matches[i // GAMES], number=i % GAMES + 1, ending="rummikub")
                    for i in range(len(games))
                )
                Rack.objects.bulk_create(
                    (
                        Rack(
                            game=g,
                            player_id=ids[p],
                            position=pos,
                            points=0 if score > 0 else min(-int(score), 200),
                            rack_value=0 if score > 0 else -int(score),
                            score=score,
                            winner=score > 0,
                        )
                        for g, (seated, scores) in zip(stored, games, strict=True)
                        for pos, (p, score) in enumerate(zip(seated, scores, strict=True), 1)
                    ),
                    batch_size=5000,
                )
    return ids, time.perf_counter() - start


def copy_in(model: Any, prototype: Any, rows: Any) -> None:
    """Rows of ``model`` by PostgreSQL's COPY: each the ``prototype``'s
    values (as an insert would store them) with the attributes a row gives
    (its id included) changed."""
    from django.db.models.fields import Field

    fields: list[Field[Any, Any]] = list(model._meta.concrete_fields)
    stored = {
        f.attname: f.get_db_prep_save(f.pre_save(prototype, True), connection) for f in fields
    }
    names = [f.attname for f in fields]
    q = connection.ops.quote_name
    columns = ", ".join(q(f.column) for f in fields)
    statement = f"COPY {q(model._meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row([row[n] if n in row else stored[n] for n in names])


def copied(
    by_round: list[tuple[Any, list[SimGame]]], ids: list[int], kind: str
) -> Iterator[dict[str, Any]]:
    """The rows of one kind (match, seat, game, rack) of every round's games,
    with ids counted from 1 in one order whatever the kind: each pass over
    the rounds numbers the matches and games alike."""
    match = game = seat = rack = 0
    for round_, games in by_round:
        for table, first in enumerate(range(0, len(games), GAMES), start=1):
            match += 1
            if kind == "match":
                yield {
                    "id": match,
                    "round_id": round_.pk,
                    "table": table,
                    "token": uuid.uuid4().hex,
                }
            seated = games[first][0]
            for pos, p in enumerate(seated, start=1):
                seat += 1
                if kind == "seat":
                    yield {
                        "id": seat,
                        "match_id": match,
                        "round_id": round_.pk,
                        "player_id": ids[p],
                        "position": pos,
                    }
            for number in range(1, GAMES + 1):
                game += 1
                if kind == "game":
                    yield {"id": game, "match_id": match, "number": number}
                if kind != "rack":
                    continue
                _, scores = games[first + number - 1]
                for pos, (p, score) in enumerate(zip(seated, scores, strict=True), start=1):
                    rack += 1
                    yield {
                        "id": rack,
                        "game_id": game,
                        "player_id": ids[p],
                        "position": pos,
                        "points": 0 if score > 0 else min(-int(score), 200),
                        "rack_value": 0 if score > 0 else -int(score),
                        "score": Decimal(int(score)),
                        "winner": score > 0,
                    }


def build_postgres(events: list[list[list[SimGame]]]) -> tuple[list[int], float]:
    """The simulated events as tournaments on PostgreSQL: tournaments and
    rounds through the ORM, matches, seats, games and racks by COPY with ids
    of their own; the player ids by index."""
    from django.core.management.color import no_style

    start = time.perf_counter()
    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create(username="bench")
    with transaction.atomic():
        players = Player.objects.bulk_create(Player(name=f"Player {i:04d}") for i in range(PLAYERS))
        ids = [p.pk for p in players]
        day = dt.date(2024, 1, 6)
        tournaments = Tournament.objects.bulk_create(
            Tournament(
                name=f"Bench {n}",
                slug=f"bench-{n}",
                owner=owner,
                date=day + dt.timedelta(days=n),
                rounds=ROUNDS,
                games_per_round=GAMES,
            )
            for n in range(len(events))
        )
        Entry.objects.bulk_create(
            (
                Entry(tournament=t, player_id=ids[p])
                for t, rounds in zip(tournaments, events, strict=True)
                for p in {p for games in rounds for seated, _ in games for p in seated}
            ),
            batch_size=10000,
        )
        rounds_made = Round.objects.bulk_create(
            (
                Round(tournament=t, number=r, games_per_match=GAMES)
                for t in tournaments
                for r in range(1, ROUNDS + 1)
            ),
            batch_size=10000,
        )
        flat_rounds = [games for rounds in events for games in rounds]
        by_round = list(zip(rounds_made, flat_rounds, strict=True))
        copy_in(Match, Match(round=rounds_made[0], table=1), copied(by_round, ids, "match"))
        copy_in(
            Seat,
            Seat(match_id=1, round=rounds_made[0], player_id=ids[0], position=1),
            copied(by_round, ids, "seat"),
        )
        copy_in(Game, Game(match_id=1, number=1, ending="rummikub"), copied(by_round, ids, "game"))
        prototype = Rack(game_id=1, player_id=ids[0], position=1, points=0, rack_value=0, score=0)
        copy_in(Rack, prototype, copied(by_round, ids, "rack"))
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(
                no_style(), [Match, Seat, Game, Rack]
            ):
                cursor.execute(statement)
    return ids, time.perf_counter() - start


# ----------------------------------------------------------------------------- the timings


def timed(work: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    out = work()
    return out, time.perf_counter() - start


def anchor(events: list[list[list[SimGame]]]) -> float:
    """openskill's own rate() loop over the same games, in the same order; seconds."""
    model = PlackettLuce()
    start = time.perf_counter()
    current: dict[int, Any] = {}
    for rounds in events:
        for games in rounds:
            for seated, scores in games:
                teams = [[current.get(p) or model.rating()] for p in seated]
                out = model.rate(teams, scores=scores)
                for p, team in zip(seated, out, strict=True):
                    current[p] = team[0]
    return time.perf_counter() - start


def engine(events: list[list[list[SimGame]]]) -> float:
    """The engine's replay (``ratings.replay.Book``) over the same games, in
    memory, nothing stored; seconds."""
    flat = [
        GameToRate(n, tuple(seated), tuple(scores))
        for n, (seated, scores) in enumerate(
            g for rounds in events for games in rounds for g in games
        )
    ]
    book = Book()
    start = time.perf_counter()
    for game in flat:
        book.play(game)
    return time.perf_counter() - start


def recording(ids: list[int]) -> tuple[float, float, int]:
    """Games recorded through game_record in a new tournament (the latest):
    median milliseconds of the whole recording and of its rating update, and
    the rating update's queries."""
    owner = get_user_model().objects.get(username="bench")
    t = Tournament.objects.create(
        name="Bench new",
        slug="bench-new",
        owner=owner,
        date=dt.date(2026, 12, 1),
        rounds=1,
        games_per_round=RECORDED,
    )
    round_ = Round.objects.create(tournament=t, number=1, games_per_match=RECORDED)
    match = Match.objects.create(round=round_, table=1)
    seated = ids[:4]
    Entry.objects.bulk_create(Entry(tournament=t, player_id=p) for p in seated)
    Seat.objects.bulk_create(
        Seat(match=match, round=round_, player_id=p, position=i) for i, p in enumerate(seated, 1)
    )
    inner: list[float] = []
    queries: list[int] = []
    original = ratings.rating_game_changed

    def measured(**kwargs: Any) -> None:
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            original(**kwargs)
            inner.append(time.perf_counter() - start)
        queries.append(len(captured))

    whole: list[float] = []
    rng = random.Random(7)
    # The recording service's own reference to the rating update, timed.
    with mock.patch.object(game_services, "rating_game_changed", measured):
        for _ in range(RECORDED):
            winner = rng.randrange(4)
            racks = [
                RackIn(player=p, points=0 if i == winner else rng.randint(3, 60))
                for i, p in enumerate(seated)
            ]
            start = time.perf_counter()
            game_services.game_record(match=match, ending="rummikub", racks=racks)
            whole.append(time.perf_counter() - start)
    return median(whole) * 1000, median(inner) * 1000, max(queries)


def correction_far_back() -> tuple[float, float]:
    """The first game of the first tournament corrected: the write's own time
    and its background replay's (the immediate task backend runs it as the
    correction commits); seconds."""
    first = (
        Game.objects.select_related("match__round__tournament")
        .order_by(
            "match__round__tournament__date", "match__round__number", "match__table", "number"
        )
        .first()
    )
    assert first is not None
    seated = list(first.match.seats.order_by("position").values_list("player_id", flat=True))
    replay: list[float] = []
    original = ratings.ratings_replay_pending

    def measured() -> None:
        start = time.perf_counter()
        original()
        replay.append(time.perf_counter() - start)

    racks = [RackIn(player=p, points=0 if i == 3 else 44) for i, p in enumerate(seated)]
    # The task's own reference to the replay, timed.
    with mock.patch.object(tasks, "ratings_replay_pending", measured):
        _, whole = timed(
            lambda: game_services.game_correct(game=first, ending="rummikub", racks=racks)
        )
    assert replay, "the replay did not run in the background"
    return whole - replay[0], replay[0]


# ----------------------------------------------------------------------------- the backtest


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    vx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    vy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return cov / (vx * vy) if vx and vy else float("nan")


def ranked(xs: Sequence[float]) -> list[float]:
    order = sorted(range(len(xs)), key=xs.__getitem__)
    out = [0.0] * len(xs)
    for r, i in enumerate(order):
        out[i] = float(r)
    return out


def backtest(
    games: list[tuple[list[int], list[float]]], skills: dict[int, float] | None
) -> dict[str, Any]:
    """Rate the first 80 % of ``games`` (in order); on the rest, the share of
    player pairs at a table (unequal scores) whose order each predictor gets
    right (a predicted tie counts half)."""
    cut = int(len(games) * TRAIN)
    book = Book()
    total: dict[int, float] = {}
    played: dict[int, int] = {}
    for n, (seated, scores) in enumerate(games[:cut]):
        book.play(GameToRate(n, tuple(seated), tuple(scores)))
        for p, s in zip(seated, scores, strict=True):
            total[p] = total.get(p, 0.0) + s
            played[p] = played.get(p, 0) + 1
    rng = random.Random(3)
    right = {"rating": 0.0, "average score": 0.0, "random": 0.0}
    pairs = 0

    def score_of(p: int) -> float:
        return total.get(p, 0.0) / played[p] if played.get(p) else 0.0

    def ordinal(p: int) -> float:
        s = book.standing(p)
        return s.mu - 3 * s.sigma if s is not None else 25.0 - 25.0

    predictors: dict[str, Callable[[int], float]] = {
        "rating": ordinal,
        "average score": score_of,
        "random": lambda p: rng.random(),
    }
    for seated, scores in games[cut:]:
        for i in range(len(seated)):
            for j in range(i + 1, len(seated)):
                if scores[i] == scores[j]:
                    continue
                pairs += 1
                better = 1 if scores[i] > scores[j] else -1
                for name, predict in predictors.items():
                    a, b = predict(seated[i]), predict(seated[j])
                    if a == b:
                        right[name] += 0.5
                    elif (a > b) == (better > 0):
                        right[name] += 1
    result: dict[str, Any] = {
        "games": len(games),
        "pairs": pairs,
        **{name: (hits / pairs if pairs else float("nan")) for name, hits in right.items()},
    }
    if skills is not None:
        final = Book()
        for n, (seated, scores) in enumerate(games):
            final.play(GameToRate(n, tuple(seated), tuple(scores)))
        people = sorted(final.games)
        mus = [final.mu[p] for p in people]
        truth = [skills[p] for p in people]
        result["pearson"] = pearson(mus, truth)
        result["spearman"] = pearson(ranked(mus), ranked(truth))
    return result


def demo_games() -> list[tuple[list[int], list[float]]]:
    """The demo tournament's rated games, in the rating order."""
    t = demo.demo_load()
    own = set(Game.objects.filter(match__round__tournament=t).values_list("pk", flat=True))
    placed = ratings.rated_games(ratings.tournament_key(t))
    return [(list(g.players), list(g.scores)) for g, _key in placed if g.game in own]


# ----------------------------------------------------------------------------- the run


def main() -> int:
    rng = random.Random(2026)
    skills, events = simulated(rng)
    games = sum(len(g) for rounds in events for g in rounds)
    ids, built = build(events)
    print(f"built {TOURNAMENTS} tournaments, {games:,} games, {PLAYERS:,} players in {built:.1f} s")
    rows, rebuild_s = timed(ratings.ratings_rebuild)
    anchor_s = anchor(events)
    engine_s = engine(events)
    report, check_s = timed(ratings.ratings_recompute)
    whole_ms, update_ms, update_queries = recording(ids)
    write_s, replay_s = correction_far_back()
    after = ratings.ratings_recompute()
    flat = [(seated, scores) for rounds in events for g in rounds for seated, scores in g]
    simulated_result = backtest(flat, skills)
    demo_result = backtest(demo_games(), None)

    checks = [
        ("anchor: openskill rate() loop, nothing stored", f"{anchor_s:.2f} s", "", True),
        (
            "the engine over the same games, nothing stored",
            f"{engine_s:.2f} s",
            "≤ anchor",
            engine_s <= anchor_s,
        ),
        (
            f"full recomputation, {games:,} games, stored ({rows:,} rows)",
            f"{rebuild_s:.2f} s",
            f"< {REBUILD_LIMIT_S:.0f} s, ≤ anchor",
            rebuild_s < REBUILD_LIMIT_S and rebuild_s <= anchor_s,
        ),
        (
            "recomputation compared with the stored ratings",
            f"{check_s:.2f} s, {len(report.differences)} differences",
            "none",
            not report.differences,
        ),
        ("a game recorded (game_record, whole)", f"{whole_ms:.2f} ms", "", True),
        (
            f"its rating update ({update_queries} queries)",
            f"{update_ms:.2f} ms",
            f"< {UPDATE_LIMIT_MS:.0f} ms",
            update_ms < UPDATE_LIMIT_MS,
        ),
        ("the first game corrected: the write", f"{write_s * 1000:.0f} ms", "", True),
        (
            f"its replay of {games:,} games (background task)",
            f"{replay_s:.2f} s",
            f"< {REPLAY_LIMIT_S:.0f} s",
            replay_s < REPLAY_LIMIT_S and not after.differences,
        ),
    ]
    width = max(len(c[0]) for c in checks)
    print(f"\n{'case':<{width}}  {'measured':>28}  {'bar':>18}")
    for name, value, bar, ok in checks:
        print(f"{name:<{width}}  {value:>28}  {bar:>18}  {'ok' if ok else 'MISSED'}")

    print("\nbacktest: pairs at a table ordered right in the last 20 % of the games")
    print(
        f"{'data':<28} {'games':>8} {'pairs':>8} {'rating':>8} {'avg score':>10} {'random':>8} "
        f"{'r(skill)':>9} {'rho':>6}"
    )
    for name, r in (
        ("simulated (skills known)", simulated_result),
        ("demo tournament", demo_result),
    ):
        print(
            f"{name:<28} {r['games']:>8,} {r['pairs']:>8,} {r['rating']:>8.3f} "
            f"{r['average score']:>10.3f} {r['random']:>8.3f} "
            f"{r.get('pearson', float('nan')):>9.3f} {r.get('spearman', float('nan')):>6.3f}"
        )
    stored = GameRating.objects.count()
    print(f"\nrating rows stored at the end: {stored:,}; scratch folder {WORKDIR}")
    failed = not all(ok for *_, ok in checks)
    return int(postgres_part() or failed)


def postgres_part() -> int:
    """The 1,000,000 games on PostgreSQL, in a process of its own; its status."""
    server = postgres_server()
    if not server:
        print("\nPostgreSQL: the local cluster cannot run here; skipped")
        return 0
    name = f"rackscore_ratings_{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "BENCH_PG_SERVER": server, "BENCH_PG_NAME": name}
    try:
        return subprocess.call([sys.executable, __file__, "--postgres"], env=env)
    finally:
        scratch_postgres_drop(server, name)


def main_postgres() -> int:
    rng = random.Random(2026)
    _skills, events = simulated(rng, PG_TOURNAMENTS)
    games = sum(len(g) for rounds in events for g in rounds)
    _ids, built = build_postgres(events)
    print(f"\nPostgreSQL: built {PG_TOURNAMENTS} tournaments, {games:,} games in {built:.0f} s")
    rows, rebuild_s = timed(ratings.ratings_rebuild)
    ok = rebuild_s < PG_REBUILD_LIMIT_S
    print(
        f"full recomputation on PostgreSQL, {games:,} games, stored ({rows:,} rows)  "
        f"{rebuild_s:.1f} s  < {PG_REBUILD_LIMIT_S:.0f} s  {'ok' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main_postgres() if POSTGRES else main())

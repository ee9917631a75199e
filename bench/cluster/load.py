"""The load: phones, projectors and tables on keep-alive connections, one asyncio thread.

Vocabulary: a *client* is one simulated device with one keep-alive HTTP/1.1
connection to nginx (asyncio streams; a connection that fails is counted and
opened again). Its requests are *due* on a schedule measured from the load's
start; the *lag* is how late the generator sent one (a starved generator
shows here before it shows in the latencies). A request's *kind* is what it
is (standings or screen *open*, a device's first request, without an ETag; standings
or screen poll; game post; game replay; anchor) and its
*phase* the part of the run it was due in (``quiet``, ``entry``, ``after``;
``idle`` for the anchor before the load). A *game replay* is a game posted a
second time with the same ``Idempotency-Key`` (a phone that lost the answer):
it must answer the first answer again and store nothing. The *tally* of a
(kind, phase) keeps its latencies (ms), its count, its errors (an answer not
expected, or no answer), its 304s and its *missed* 304s (a 200 that carried
the very ETag the poll sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field

from cluster.event import Event, Table

PHONES = 1000
PHONE_PERIOD_S = 10.0
PROJECTORS = 4
PROJECTOR_PERIOD_S = 5.0
ANCHOR_PERIOD_S = 0.25
ANCHOR_IDLE = 400
ANCHOR_IDLE_CLIENTS = 4
REQUEST_TIMEOUT_S = 30.0
POST_TRIES = 3
# Kinds, in the table's order.
STANDINGS = "standings poll"
SCREEN = "screen poll"
# A device's first request: no ETag yet, the whole page (the kind's "open").
OPENS = {STANDINGS: "standings open", SCREEN: "screen open"}
GAME = "game post"
REPLAY = "game replay"
ANCHOR = "anchor"
KINDS = (OPENS[STANDINGS], STANDINGS, OPENS[SCREEN], SCREEN, GAME, REPLAY, ANCHOR)
PHASES = ("idle", "quiet", "entry", "after")


@dataclass(frozen=True)
class Timeline:
    """The phases' lengths in seconds: quiet, entry (the games), after."""

    quiet_s: float
    entry_s: float
    after_s: float

    @property
    def total_s(self) -> float:
        return self.quiet_s + self.entry_s + self.after_s

    def phase(self, due_s: float) -> str:
        if due_s < self.quiet_s:
            return "quiet"
        return "entry" if due_s < self.quiet_s + self.entry_s else "after"


@dataclass
class Tally:
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    not_modified: int = 0
    # Polls answered 200 with the very ETag they sent: a full page where a 304 was due.
    missed: int = 0
    statuses: Counter[str] = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return len(self.latencies_ms)

    def percentile(self, share: float) -> float:
        """Nearest rank: the latency that ``share`` of the requests did not exceed."""
        ordered = sorted(self.latencies_ms)
        return ordered[max(math.ceil(share * len(ordered)) - 1, 0)] if ordered else math.nan


@dataclass
class Figures:
    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)
    lags_ms: list[float] = field(default_factory=list)

    def tally(self, kind: str, phase: str) -> Tally:
        return self.tallies.setdefault((kind, phase), Tally())


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    size: int


class Connection:
    """One keep-alive HTTP/1.1 connection to nginx; opened on first use."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> Answer:
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT_S):
                return await self._exchange(method, path, headers, body)
        except BaseException:
            await self.close()
            raise

    async def _exchange(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> Answer:
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        await writer.drain()
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionResetError("closed before the answer")
        status = int(status_line.split()[1])
        answer_headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            answer_headers[name.strip().lower()] = value.strip()
        size = await self._body(reader, status, answer_headers)
        if answer_headers.get("connection", "").lower() == "close":
            await self.close()
        return Answer(status=status, headers=answer_headers, size=size)

    @staticmethod
    async def _body(reader: asyncio.StreamReader, status: int, headers: dict[str, str]) -> int:
        if status in (204, 304):
            return 0
        if "content-length" in headers:
            return len(await reader.readexactly(int(headers["content-length"])))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            size = 0
            while chunk := int((await reader.readline()).split(b";")[0], 16):
                size += len(await reader.readexactly(chunk + 2)) - 2
            while (await reader.readline()) not in (b"\r\n", b""):
                pass  # trailers
            return size
        return len(await reader.read())

    async def close(self) -> None:
        if self.streams is not None:
            writer = self.streams[1]
            self.streams = None
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


class Run:
    """One load run against nginx on ``port``: its clock, its figures."""

    def __init__(self, port: int, timeline: Timeline) -> None:
        self.port = port
        self.timeline = timeline
        self.figures = Figures()
        self.start = 0.0

    def now_s(self) -> float:
        return asyncio.get_running_loop().time() - self.start

    async def due(self, due_s: float) -> None:
        """Sleep until ``due_s``; note how late the generator woke up (a client
        late because of its own previous request is not the generator's lag)."""
        wait = due_s - self.now_s()
        if wait > 0:
            await asyncio.sleep(wait)
            self.figures.lags_ms.append(max(self.now_s() - due_s, 0.0) * 1000)

    async def timed(
        self,
        connection: Connection,
        *,
        kind: str,
        phase: str,
        expected: tuple[int, ...],
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes = b"",
    ) -> Answer | None:
        """One request, tallied under (kind, phase); None when it got no answer."""
        tally = self.figures.tally(kind, phase)
        loop = asyncio.get_running_loop()
        started = loop.time()
        answer: Answer | None
        try:
            answer = await connection.request(method, path, headers, body)
        except (
            OSError,
            ValueError,
            IndexError,
            TimeoutError,
            asyncio.IncompleteReadError,
        ) as error:
            answer = None
            tally.statuses[type(error).__name__] += 1
        tally.latencies_ms.append((loop.time() - started) * 1000)
        if answer is not None:
            tally.statuses[str(answer.status)] += 1
            tally.not_modified += answer.status == 304
        if answer is None or answer.status not in expected:
            tally.errors += 1
        return answer

    # ---------------------------------------------------------------------- clients

    async def poller(self, *, kind: str, path: str, offset_s: float, period_s: float) -> None:
        """A phone or a projector: ``path`` every ``period_s``, with the last ETag."""
        connection = Connection(self.port)
        etag = ""
        due_s = offset_s
        while due_s < self.timeline.total_s:
            await self.due(due_s)
            headers = {"Accept": "text/html,application/json", "Accept-Encoding": "gzip"}
            if etag:
                headers["If-None-Match"] = etag
            answer = await self.timed(
                connection,
                kind=kind if etag else OPENS[kind],
                phase=self.timeline.phase(due_s),
                expected=(200, 304) if etag else (200,),
                method="GET",
                path=path,
                headers=headers,
            )
            if etag:
                self.figures.tally(kind, self.timeline.phase(due_s)).missed += (
                    answer is not None
                    and answer.status == 200
                    and (answer.headers.get("etag") == etag)
                )
            if answer is not None and answer.status == 200:
                etag = answer.headers.get("etag", "")
            due_s = self.slot_next(due_s, period_s)
        await connection.close()

    async def table(self, table: Table, *, dues_s: list[float], replays: set[int]) -> None:
        """A table's phone: its games at ``dues_s``, each with its own key; a failed
        post is sent again with the same key (up to POST_TRIES); the games in
        ``replays`` once more after their answer."""
        connection = Connection(self.port)
        path = f"/api/v1/matches/{table.match}/games/"
        for game, due_s in zip(table.games, dues_s, strict=True):
            await self.due(due_s)
            headers = {
                "Content-Type": "application/json",
                "X-Match-Token": table.token,
                "Idempotency-Key": str(uuid.uuid4()),
            }
            body = json.dumps(game).encode()
            phase = self.timeline.phase(due_s)
            for _ in range(POST_TRIES):
                answer = await self.timed(
                    connection,
                    kind=GAME,
                    phase=phase,
                    expected=(201,),
                    method="POST",
                    path=path,
                    headers=headers,
                    body=body,
                )
                if answer is not None and answer.status < 500:
                    break
            if game["number"] in replays:
                await self.timed(
                    connection,
                    kind=REPLAY,
                    phase=phase,
                    expected=(201,),
                    method="POST",
                    path=path,
                    headers=headers,
                    body=body,
                )
        await connection.close()

    async def anchor(self, *, count: int) -> None:
        """``GET /healthz`` ``count`` times in a row: the anchor alone."""
        connection = Connection(self.port)
        for _ in range(count):
            await self.anchor_once(connection, phase="idle")
        await connection.close()

    async def anchor_beside(self, *, period_s: float) -> None:
        """``GET /healthz`` every ``period_s`` of the load."""
        connection = Connection(self.port)
        due_s = 0.0
        while due_s < self.timeline.total_s:
            await self.due(due_s)
            await self.anchor_once(connection, phase=self.timeline.phase(due_s))
            due_s = self.slot_next(due_s, period_s)
        await connection.close()

    async def anchor_once(self, connection: Connection, *, phase: str) -> None:
        await self.timed(
            connection,
            kind=ANCHOR,
            phase=phase,
            expected=(200,),
            method="GET",
            path="/healthz",
            headers={"Accept": "application/json"},
        )

    def slot_next(self, due_s: float, period_s: float) -> float:
        """The next slot after now: slots missed while a request waited are
        skipped, never sent late in a burst."""
        return due_s + period_s * max(1, math.ceil((self.now_s() - due_s) / period_s))

    # -------------------------------------------------------------------------- run

    async def idle_anchor(self) -> None:
        """The anchor alone, before any load: ANCHOR_IDLE requests over a few clients."""
        self.start = asyncio.get_running_loop().time()
        each = ANCHOR_IDLE // ANCHOR_IDLE_CLIENTS
        await asyncio.gather(*(self.anchor(count=each) for _ in range(ANCHOR_IDLE_CLIENTS)))

    async def load(self, event: Event, *, seed: int, replay_share: float) -> None:
        """Phones and projectors all along; the tables' games within the entry phase."""
        rng = random.Random(seed)
        self.start = asyncio.get_running_loop().time()
        entry_from = self.timeline.quiet_s
        clients = [
            self.poller(
                kind=STANDINGS,
                path=event.standings_path,
                offset_s=rng.uniform(0, PHONE_PERIOD_S),
                period_s=PHONE_PERIOD_S,
            )
            for _ in range(PHONES)
        ]
        clients += [
            self.poller(
                kind=SCREEN,
                path=event.screen_path,
                offset_s=rng.uniform(0, PROJECTOR_PERIOD_S),
                period_s=PROJECTOR_PERIOD_S,
            )
            for _ in range(PROJECTORS)
        ]
        for table in event.tables:
            # Each table's games at random moments of the entry phase, in order.
            dues_s = sorted(entry_from + rng.uniform(0, self.timeline.entry_s) for _ in table.games)
            replays = {g["number"] for g in table.games if rng.random() < replay_share}
            clients.append(self.table(table, dues_s=dues_s, replays=replays))
        clients.append(self.anchor_beside(period_s=ANCHOR_PERIOD_S))
        await asyncio.gather(*clients)

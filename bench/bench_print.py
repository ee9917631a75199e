"""Score sheets for a 1,000-player round (250 tables of 4, 4 games each).

Builds the round in a temporary SQLite database, then prints its score
sheets in fresh processes, one per run, each timed from the query to the PDF
bytes (WeasyPrint's warm-up included, as for the command):

* ``layers`` — what the site and ``print_scoresheets`` do: the static layer
  laid out once, the page layers rendered in chunks in the same process (no
  worker processes), joined with pypdf (``printing.sheet_sets.sheets_pdf``);
  three runs, the median shown;
* ``whole`` — the naive render of the same sheets: every page whole, one
  document, one process (``printing.render.sheets_pdf_whole``).

Peak memory is sampled every 20 ms over the process and any children: PSS (a
page shared by processes counted once, split between them) and the plain sum
of RSS (shared pages counted in every process, an upper bound).
The bar: ``layers`` under 4 s and 400 MB. Exits 1 when it misses. The machine
is shared, so the load average before each run is printed with it.

Then the standings and the final report of a 1,000-player, 10-round event
(``bench_standings.build``), in one fresh process: each drawn on a cache miss
(*cold*: the tournament's version not yet printed, in a process that has
printed before, as a running server has) and served from the files cache
(*cached*), medians of three, beside the targets (standings under 1 s,
report under 5 s) and two anchors measured in the same run: WeasyPrint
rendering a fixed one-page table, and the old HTML-table render of the same
standings (``templates/print/standings.html``, once: it takes seconds).

Run it with ``make bench`` (or ``python bench/bench_print.py`` from the
project root).
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Measured as served: debug off, which wants a secret key (a bench's own).
os.environ.setdefault("DJANGO_DEBUG", "0")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "x" * 50)

PLAYERS = 1000
TABLE = 4
GAMES = 4
LIMIT_S = 4.0
LIMIT_MB = 400.0
RUNS = 3
FIRST = [
    "Anna", "Ben", "Cleo", "Dan", "Eva", "Frederik", "Greta", "Hans", "Ida", "Jonas", "Karin",
    "Lars", "Mette", "Nils", "Olga", "Per", "Søren", "Åsa", "Jürgen", "Øystein", "Maartje",
    "Sjoerd", "Ingrid", "Bjørn",
]  # fmt: skip
LAST = [
    "Jensen", "Larsen", "Nielsen", "Hansen", "Berg", "Holm", "Lind", "Meyer", "Kristensen",
    "Dahl", "Vos", "Eriksen", "Bakker", "Olsen", "Schmidt", "Andersen", "Müller",
    "Østergaard", "Åkesson", "de Vries", "van Dijk", "Lindqvist", "Bäckström",
]  # fmt: skip


def _django(database: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    import django

    django.setup()


def build(database: str) -> None:
    """A tournament with 1,000 entered players and round 1 seated at 250 tables."""
    _django(database)
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournaments.models import Entry, Match, Player, Round, Seat, Tournament

    call_command("migrate", verbosity=0)
    owner = get_user_model().objects.create_user("bench", "", "bench-pass-123")
    t = Tournament.objects.create(
        name="Nordic Rummikub Open 2026",
        slug="nordic-open",
        owner=owner,
        games_per_round=GAMES,
        joker_penalty=30,
        date="2026-11-21",
    )
    players = Player.objects.bulk_create(
        Player(name=f"{FIRST[i % len(FIRST)]} {LAST[(i * 7 + i // 24) % len(LAST)]}")
        for i in range(PLAYERS)
    )
    Entry.objects.bulk_create(Entry(tournament=t, player=p) for p in players)
    round_ = Round.objects.create(tournament=t, number=1, games_per_match=GAMES)
    matches = Match.objects.bulk_create(
        Match(round=round_, table=i + 1) for i in range(PLAYERS // TABLE)
    )
    Seat.objects.bulk_create(
        Seat(match=m, round=round_, player=players[i * TABLE + s], position=s + 1)
        for i, m in enumerate(matches)
        for s in range(TABLE)
    )


def _cache_dir_scratch() -> None:
    """A files cache of this process's own, removed when it leaves: never the developer's."""
    folder = tempfile.mkdtemp(prefix="rackscore-bench-files-")
    os.environ["RACKSCORE_CACHE_DIR"] = folder
    atexit.register(shutil.rmtree, folder, True)


def _descendants(pid: int) -> list[int]:
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue
        for child in children:
            found.extend(_descendants(int(child)))
    return found


def _memory(pids: list[int]) -> tuple[float, float]:
    """(PSS, RSS) in MB, summed over the processes."""
    pss = rss = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    pss += int(line.split()[1])
                elif line.startswith("Rss:"):
                    rss += int(line.split()[1])
        except OSError:
            continue  # a worker that just left
    return pss / 1024, rss / 1024


class Sampler(threading.Thread):
    """Keeps the peak memory of this process and its children, every 20 ms."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peak_pss = self.peak_rss = 0.0
        self.running = True

    def run(self) -> None:
        while self.running:
            pss, rss = _memory(_descendants(os.getpid()))
            self.peak_pss, self.peak_rss = max(self.peak_pss, pss), max(self.peak_rss, rss)
            time.sleep(0.02)


def run_variant(database: str, variant: str) -> dict[str, Any]:
    """One timed print in this (fresh) process, past an empty files cache (each run renders)."""
    _cache_dir_scratch()
    _django(database)
    import pypdf
    import weasyprint  # noqa: F401  (imported before the clock: process start-up)

    from printing.render import sheets_pdf_whole
    from tournaments.documents.files import BASE_URL_DEFAULT, scoresheets_pdf
    from tournaments.models import Round
    from tournaments.selectors.print_data import scoresheets_data

    round_ = Round.objects.select_related("tournament").get(tournament__slug="nordic-open")
    sampler = Sampler()
    sampler.start()
    before = os.times()
    start = time.perf_counter()
    if variant == "layers":
        pdf = scoresheets_pdf(round_=round_, base_url=BASE_URL_DEFAULT)
    else:
        data = scoresheets_data(round_=round_, base_url=BASE_URL_DEFAULT)
        pdf = sheets_pdf_whole(sheet_set=data)
    seconds = time.perf_counter() - start
    after = os.times()
    sampler.running = False
    sampler.join()
    cpu = sum(after[:4]) - sum(before[:4])  # user + system, self and any waited-for children
    import io

    pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    return {
        "pages": pages,
        "seconds": seconds,
        "cpu": cpu,
        "pss": sampler.peak_pss,
        "rss": sampler.peak_rss,
        "kb": len(pdf) // 1024,
    }


def _child(database: str, variant: str) -> dict[str, Any]:
    load = os.getloadavg()[0]
    out = subprocess.run(
        [sys.executable, __file__, "--variant", variant, "--db", database],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    result["load"] = load
    return result


STANDINGS_LIMIT_S, REPORT_LIMIT_S = 1.0, 5.0


def _median(fn: Any, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def run_files() -> dict[str, Any]:
    """The standings and report files of the 1,000-player event, in this (fresh) process."""
    _cache_dir_scratch()
    sys.path.insert(0, str(ROOT / "bench"))
    import bench_standings  # sets Django up on a scratch database
    from django.core.cache import caches
    from django.template.loader import render_to_string
    from django.utils import timezone

    from printing.layout import number_columns_mm
    from printing.render import html_pdf
    from tournaments.documents import documents, files
    from tournaments.selectors import print_data as data
    from tournaments.selectors.standings import standings_for
    from tournaments.selectors.unconfirmed import unconfirmed_of

    t, _timings = bench_standings.build()
    store = caches["files"]

    def cold(draw: Any) -> Any:
        def run() -> None:
            store.clear()
            draw(tournament=t)

        return run

    def html_table_standings() -> bytes:
        """The old render: the standings as an HTML table, laid out by WeasyPrint."""
        columns = data.standings_columns(tournament=t)
        unconfirmed = unconfirmed_of(tournament=t)
        html = render_to_string(
            "print/standings.html",
            {
                "tournament": t,
                "rows": data.standings_lines(
                    standings_for(tournament=t), columns=columns, unconfirmed=unconfirmed
                ),
                "unconfirmed": unconfirmed,
                "number_columns": number_columns_mm(columns),
                "number_headings": data.standings_headings(columns),
                "rounds_played": data.rounds_played(tournament=t),
                "paper": t.paper,
                "printed": timezone.localtime(),
            },
        )
        return html_pdf(html, stylesheet="report.css")

    one_page = (
        "<table>"
        + "".join(
            f"<tr><td>{i}</td><td class='l'>Player {i:04d}</td><td>{i * 7}</td></tr>"
            for i in range(40)
        )
        + "</table>"
    )
    first = time.perf_counter()
    documents.standings_document(tournament=t)  # the process's first print: fonts read
    first_s = time.perf_counter() - first
    result = {
        "first": first_s,
        "standings cold": _median(cold(files.standings_pdf)),
        "standings cached": _median(lambda: files.standings_pdf(tournament=t)),
        "report cold": _median(cold(files.report_pdf)),
        "report cached": _median(lambda: files.report_pdf(tournament=t)),
        "anchor page": _median(lambda: html_pdf(one_page, stylesheet="report.css")),
        "anchor table": _median(html_table_standings, runs=1),
        "pages": len(__import__("pypdf").PdfReader(
            __import__("io").BytesIO(files.report_pdf(tournament=t))).pages),
    }  # fmt: skip
    return result


def files_table() -> bool:
    """Prints the files' table; whether every target is met."""
    load = os.getloadavg()[0]
    out = subprocess.run(
        [sys.executable, __file__, "--files"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"\nstandings and report, 1,000 players x 10 rounds (report: {r['pages']} pages); "
          f"medians of {RUNS}; load {load:.2f}")  # fmt: skip
    rows = [
        ("standings.pdf, cold (drawn)", r["standings cold"], STANDINGS_LIMIT_S),
        ("standings.pdf, cached", r["standings cached"], STANDINGS_LIMIT_S),
        ("report.pdf, cold (drawn)", r["report cold"], REPORT_LIMIT_S),
        ("report.pdf, cached", r["report cached"], REPORT_LIMIT_S),
        ("first print in a process (fonts)", r["first"], None),
        ("anchor: WeasyPrint, 1-page table", r["anchor page"], None),
        ("anchor: old HTML-table standings", r["anchor table"], None),
    ]
    print(f"{'file':36} {'seconds':>8} {'target':>8}  verdict")
    ok = True
    for label, seconds, limit in rows:
        met = limit is None or seconds < limit
        ok &= met
        target = f"< {limit:.0f} s" if limit else ""
        verdict = ("met" if met else "MISSED") if limit else ""
        print(f"{label:36} {seconds:>8.3f} {target:>8}  {verdict}")
    return ok


def main() -> int:
    files_ok = files_table()
    workdir = tempfile.mkdtemp(prefix="rackscore-bench-print-")
    database = f"{workdir}/bench.sqlite3"
    try:
        subprocess.run(
            [sys.executable, __file__, "--build", "--db", database], check=True, cwd=ROOT
        )
        fast = [_child(database, "layers") for _ in range(RUNS)]
        naive = _child(database, "whole")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    median = sorted(fast, key=lambda r: r["seconds"])[len(fast) // 2]
    spread = ", ".join(f"{r['seconds']:.2f}" for r in fast)
    print(
        f"{PLAYERS} players, {PLAYERS // TABLE} tables of {TABLE}, {GAMES} games; "
        f"{os.cpu_count()} cores"
    )
    header = ("variant", "pages", "seconds", "cpu s", "peak MB", "RSS sum", "PDF kB", "load")
    rows = [
        ("layers, in process (median)", median),
        ("whole pages, 1 document", naive),
    ]
    print(f"{header[0]:30} {header[1]:>5} {header[2]:>8} {header[3]:>6} {header[4]:>8} "
          f"{header[5]:>8} {header[6]:>7} {header[7]:>5}")  # fmt: skip
    for label, r in rows:
        print(
            f"{label:30} {r['pages']:>5} {r['seconds']:>8.2f} {r['cpu']:>6.2f} "
            f"{r['pss']:>8.0f} {r['rss']:>8.0f} {r['kb']:>7} {r['load']:>5.2f}"
        )
    print(f"layers runs: {spread} s; speed-up {naive['seconds'] / median['seconds']:.1f}×")
    ok = median["seconds"] < LIMIT_S and max(r["pss"] for r in fast) < LIMIT_MB
    ok = ok and all(r["pages"] == PLAYERS // TABLE for r in (*fast, naive))
    print(f"bar: under {LIMIT_S:.0f} s and {LIMIT_MB:.0f} MB (PSS) — {'met' if ok else 'MISSED'}")
    return 0 if ok and files_ok else 1


if __name__ == "__main__":
    if "--files" in sys.argv:
        print(json.dumps(run_files()))
    elif "--build" in sys.argv:
        build(sys.argv[sys.argv.index("--db") + 1])
    elif "--variant" in sys.argv:
        db = sys.argv[sys.argv.index("--db") + 1]
        print(json.dumps(run_variant(db, sys.argv[sys.argv.index("--variant") + 1])))
    else:
        sys.exit(main())

"""The standings and the final report as drawn PDF documents, words and numbers in the
tournament's language.

Vocabulary: a *document* is the blocks of :mod:`printing.table_layout`
(head, tables, match boxes) paginated and drawn (:mod:`printing.drawn`);
this module reads the tournament (``data``) and supplies every word,
translated, with the same messages the pages use, so a translation made for
the site serves the prints as well.
"""

from __future__ import annotations

import datetime
import html
from collections.abc import Sequence
from dataclasses import replace

from django.template.loader import render_to_string
from django.utils import formats, timezone, translation
from django.utils.html import strip_tags
from django.utils.translation import gettext, ngettext

from printing.data import StandingsLine
from printing.drawn import drawn_pdf
from printing.layout import PAPER_MM, number_columns_mm
from printing.table_layout import (
    Block,
    ReportWords,
    adjustments_blocks,
    blocks_paginated,
    document_head,
    page_numbers_added,
    paragraph,
    rounds_blocks,
    standings_blocks,
)
from tournaments.models import Tournament
from tournaments.selectors.print_data import (
    report_data,
    rounds_played,
    standings_columns,
    standings_headings,
    standings_lines,
)
from tournaments.selectors.standings import ranking_current
from tournaments.selectors.unconfirmed import unconfirmed_of
from tournaments.standings.current import STAGE_LABELS, RankingCurrent
from tournaments.standings.ranking import CATEGORY_ABSENT, StandingRow


def _org(tournament: Tournament) -> str:
    parts = [tournament.name]
    if tournament.club:
        parts.append(tournament.club.name)
    if tournament.date:
        parts.append(formats.date_format(tournament.date, "DATE_FORMAT"))
    return " · ".join(parts)


def _printed(now: datetime.datetime) -> str:
    return f"{gettext('printed')} {formats.date_format(now, 'DATETIME_FORMAT')}"


def _ranked(tournament: Tournament) -> str:
    return f"{gettext('Ranked by')} {tournament.get_ranking_display()}"


def _ranking_named(tournament: Tournament, ranking: RankingCurrent) -> str:
    """The stage the order comes from, in words (empty for a tournament without stages)."""
    if ranking.staged or ranking.decided or tournament.semifinal_players >= 2:
        return gettext(ranking.label)
    return ""


def _standings_table(
    tournament: Tournament,
    lines: list[StandingsLine],
    columns: list[str],
    *,
    stage: str = "",
    empty: str = "",
) -> list[Block]:
    """The standings' table; ``empty``: what it says without a row (by default,
    that no player has entered)."""
    return standings_blocks(
        lines,
        paper=tournament.paper,
        headings=[
            gettext("Rank"),
            gettext("Player"),
            gettext("Club"),
            *standings_headings(columns),
        ],
        numbers_mm=number_columns_mm(columns),
        withdrawn=gettext("withdrawn"),
        empty=empty or gettext("No players have entered yet."),
        stage=stage,
    )


def _columns_shown(columns: list[str], rows: Sequence[StandingRow]) -> list[str]:
    """The number columns worth printing: the adjustments only when some player has one
    (an empty column takes the room the names and clubs need)."""
    return [c for c in columns if c != "adjustments" or any(r.adjustments for r in rows)]


def _stages_named(lines: list[StandingsLine], ranking: RankingCurrent) -> list[StandingsLine]:
    """Each place with the stage that decided it ("Final", "Semi-finals", "Qualifying")."""
    return [
        replace(line, stage=gettext(STAGE_LABELS[row.stage]))
        for line, row in zip(lines, ranking.rows, strict=True)
    ]


def _pdf(tournament: Tournament, blocks: list[Block], *, title: str) -> bytes:
    paper = tournament.paper
    pages = page_numbers_added(blocks_paginated(blocks, paper=paper), paper=paper)
    return drawn_pdf(
        pages=pages, paper_mm=PAPER_MM[paper], title=title, language=tournament.language
    )


def standings_document(*, tournament: Tournament, category: str = "") -> bytes:
    """The current ranking, as every page shows it (one category's, ranked among
    themselves, when given), named by the stage it comes from, with the footnote
    on games awaiting confirmation."""
    unconfirmed = unconfirmed_of(tournament=tournament)
    ranking = ranking_current(tournament=tournament, category=category)
    columns = _columns_shown(standings_columns(tournament=tournament), ranking.rows)
    played = rounds_played(tournament=tournament)
    with translation.override(tournament.language):
        lines = standings_lines(ranking.rows, columns=columns, unconfirmed=unconfirmed)
        heading = gettext("Standings")
        named = _ranking_named(tournament, ranking)
        if named:
            heading = f"{heading} · {named}"
        if category:
            heading = f"{heading} · {category}"
        meta = " · ".join(
            [
                ngettext("After %(rounds)s round", "After %(rounds)s rounds", played)
                % {"rounds": played},
                _ranked(tournament),
                _printed(timezone.localtime()),
            ]
        )
        blocks = document_head(
            paper=tournament.paper, org=_org(tournament), heading=heading, meta=meta
        )
        if ranking.staged and not ranking.decided:
            blocks.append(
                paragraph(
                    gettext(
                        "The players still in play come first, ranked by the stage they are "
                        "in; then the others, by the stage they reached."
                    ),
                    paper=tournament.paper,
                    size=9,
                    after=2,
                )
            )
        # Said only of an empty table: a category some player carries has rows,
        # so one with none is nobody's.
        absent = gettext(CATEGORY_ABSENT) % {"category": category} if category else ""
        blocks += _standings_table(tournament, lines, columns, empty=absent)
        # The footnote's words live in one template, shared with the standings page.
        note = html.unescape(
            strip_tags(
                render_to_string("tournaments/_unconfirmed_note.html", {"unconfirmed": unconfirmed})
            )
        ).strip()
        if note:
            blocks.append(paragraph(note, paper=tournament.paper, size=9, before=2))
        return _pdf(tournament, blocks, title=f"{heading} – {tournament.name}")


def report_document(*, tournament: Tournament) -> bytes:
    """The final places, each round's results by table, and the adjustments."""
    report = report_data(tournament=tournament)
    columns = _columns_shown(standings_columns(tournament=tournament), report.ranking.rows)
    paper = tournament.paper
    with translation.override(tournament.language):
        places = standings_lines(report.ranking.rows, columns=columns)
        heading = gettext("Final report")
        rounds, players = len(report.rounds), len(report.standings)
        meta = " · ".join(
            [
                ngettext("%(rounds)s round", "%(rounds)s rounds", rounds) % {"rounds": rounds},
                ngettext("%(players)s player", "%(players)s players", players)
                % {"players": players},
                f"{gettext('Joker')} {tournament.joker_penalty}",
                _ranked(tournament),
                _printed(timezone.localtime()),
            ]
        )
        blocks = document_head(paper=paper, org=_org(tournament), heading=heading, meta=meta)
        # Decided: the final standings; printed before that, the order now, named.
        standings_heading = (
            gettext("Final standings")
            if report.ranking.decided
            else " · ".join(
                filter(None, [gettext("Standings"), _ranking_named(tournament, report.ranking)])
            )
        )
        blocks.append(
            paragraph(standings_heading, paper=paper, size=13, font="bold",
                      before=6, after=2, keep_with_next=True)
        )  # fmt: skip
        if report.ranking.staged:  # semi-finals or a final: say where each place was decided
            blocks += _standings_table(
                tournament,
                _stages_named(places, report.ranking),
                columns,
                stage=gettext("Decided in") if report.ranking.decided else gettext("Stage"),
            )
        else:
            blocks += _standings_table(tournament, places, columns)
        if report.rounds:
            blocks.append(
                paragraph(gettext("Results by table"), paper=paper, size=13, font="bold",
                          before=0, after=2, keep_with_next=True, break_before=True)
            )  # fmt: skip
            blocks.append(
                paragraph(
                    gettext(
                        "Each player's score over the match, and in brackets the games they won."
                    ),
                    paper=paper, size=8, grey=0.267, keep_with_next=True,
                )
            )  # fmt: skip
            headings = []
            for r in report.rounds:
                parts = [gettext("Round %(number)s") % {"number": r.number}]
                if r.stage:
                    parts.append(str(r.stage))
                if r.date:
                    parts.append(formats.date_format(r.date, "DATE_FORMAT"))
                headings.append(" · ".join(parts))
            counts = {m.games for r in report.rounds for m in r.matches}
            words = ReportWords(
                table=gettext("Table %(table)s"),
                games={
                    n: "· "
                    + (
                        ngettext("%(games)s game", "%(games)s games", n) % {"games": n}
                        if n
                        else gettext("not played")
                    )
                    for n in counts
                },
                none=gettext("No tables in this round."),
            )
            blocks += rounds_blocks(
                report.rounds, paper=paper, round_headings=headings, words=words
            )
        blocks.append(
            paragraph(gettext("Adjustments"), paper=paper, size=13, font="bold", before=6,
                      after=2, keep_with_next=bool(report.adjustments))
        )  # fmt: skip
        if report.adjustments:
            blocks += adjustments_blocks(
                report.adjustments,
                paper=paper,
                headings=[gettext("Player"), gettext("Round"), gettext("Kind"),
                          gettext("Points"), gettext("Reason")],
            )  # fmt: skip
        else:
            blocks.append(paragraph(gettext("No adjustments."), paper=paper, size=9))
        return _pdf(tournament, blocks, title=f"{heading} – {tournament.name}")

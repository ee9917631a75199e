from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tests.factories import ClubFactory, PlayerFactory, round_play, tournament_entered
from tournaments.models import Club, Player
from tournaments.services import adjustments, entries, rounds, stages

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def csv_file(tmp_path, text: str, encoding: str = "utf-8", name: str = "players.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return str(path)


# ---------------------------------------------------------------- import_players


def test_import_players_with_a_header_and_clubs(tmp_path):
    ClubFactory(name="Nørrebro")
    path = csv_file(tmp_path, "name,club\nAnna Jensen,Nørrebro\nBen Larsen,Vesterbro\n\nCleo,\n")
    out, _err = run("import_players", path)
    assert "Imported 3 players" in out
    players = {p.name: p.club.name if p.club else "" for p in Player.objects.all()}
    assert players == {"Anna Jensen": "Nørrebro", "Ben Larsen": "Vesterbro", "Cleo": ""}
    assert Club.objects.count() == 2


def test_import_players_without_header_semicolons_and_a_bom_and_again(tmp_path):
    path = csv_file(tmp_path, "Anna;Club A\r\nBen;Club A\r\n", encoding="utf-8-sig")
    semicolons = csv_file(tmp_path, "name;club\nCleo;B\n;B\nDan;B;x\n", name="bad.csv")
    with pytest.raises(CommandError):
        run("import_players", semicolons)
    run("import_players", path)
    assert sorted(Player.objects.values_list("name", "club__name")) == [
        ("Anna", "Club A"),
        ("Ben", "Club A"),
    ]
    out, _err = run("import_players", path)
    assert "Imported 0 players (2 already known" in out
    assert Player.objects.count() == 2


def test_import_players_reports_every_bad_line_and_imports_nothing(tmp_path):
    PlayerFactory(name="Existing")
    long_name = "x" * 121
    path = csv_file(
        tmp_path,
        "name,club\n"
        "Anna,A\n"
        ",B\n"  # line 3: no name
        f"{long_name},C\n"  # line 4
        "Ben,A,extra\n"  # line 5
        "anna,a\n",  # line 6: duplicate of line 2
    )
    with pytest.raises(CommandError, match="Nothing imported; problems in the file: 4"):
        run("import_players", path)
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("import_players", path, stdout=StringIO(), stderr=err)
    lines = err.getvalue().splitlines()
    assert lines == [
        f"{path}: line 3: the name is missing",
        f"{path}: line 4: the name is longer than 120 characters",
        f"{path}: line 5: 3 columns, expected at most 2 (name, club)",
        f"{path}: line 6: anna (a) is already on line 2",
    ]
    assert list(Player.objects.values_list("name", flat=True)) == ["Existing"]
    assert not Club.objects.exists()


def test_import_players_unknown_column_empty_file_bad_encoding_missing_file(tmp_path):
    with pytest.raises(CommandError):
        run("import_players", csv_file(tmp_path, "name,rating\nAnna,1500\n"))
    with pytest.raises(CommandError, match="problems in the file: 1"):
        run("import_players", csv_file(tmp_path, "\n\n"))
    with pytest.raises(CommandError, match="line 2 is not UTF-8"):
        run("import_players", csv_file(tmp_path, "Anna\nBjørn\n", encoding="latin-1"))
    with pytest.raises(CommandError, match="Cannot read"):
        run("import_players", str(tmp_path / "missing.csv"))
    assert not Player.objects.exists()


def test_import_players_into_a_tournament(tmp_path):
    t = tournament_entered(players=0)
    path = csv_file(tmp_path, "Anna,A\nBen,A\n")
    out, _err = run("import_players", path, "--tournament", t.slug)
    assert "2 entered in" in out
    assert t.entries.count() == 2
    added: Any = t.audit.get()
    assert (added.action, added.via) == ("entry.added", "system")
    assert sorted(p["name"] for p in added.new["players"]) == ["Anna", "Ben"]
    with pytest.raises(CommandError, match="No tournament"):
        run("import_players", path, "--tournament", "nope")


# ---------------------------------------------------------------- seat_round


def test_seat_round_prints_the_tables(tmp_path):
    t = tournament_entered(players=7, games_per_round=1)
    out, _err = run("seat_round", t.slug)
    lines = out.splitlines()
    assert lines[0].endswith("round 1 (qualifying), 1 games a table")
    assert lines[1].split() == ["Table", "Seat", "Player", "Club"]
    names = set(t.entries.values_list("player__name", flat=True))
    assert {line.split("  ")[-1].strip() for line in lines[3:10]} <= names | {""}
    assert sum(1 for n in names if n in out) == 7
    assert "Seat 1 starts game 1" in out
    # The round has no results: the next one is refused, a re-seat is fine.
    with pytest.raises(CommandError, match="Round 1 is not finished"):
        run("seat_round", t.slug)
    out, _err = run("seat_round", str(t.pk), "--reseat")
    assert "round 1" in out
    # A command acts as the system.
    trail = [(e.action, e.via) for e in t.audit.order_by("id")]
    assert trail == [("round.seated", "system"), ("round.reseated", "system")]


def test_seat_round_stages(tmp_path):
    t = tournament_entered(players=8, games_per_round=1, semifinal_players=8, rounds=1)
    round_play(rounds.round_seat_next(tournament=t))
    out, _err = run("seat_round", t.slug, "--stage", "semifinal")
    assert "round 2 (semi-final)" in out
    with pytest.raises(CommandError, match="No tournament"):
        run("seat_round", "nope")


# ---------------------------------------------------------------- standings


def test_standings_prints_an_aligned_table():
    t = tournament_entered(players=8, games_per_round=2, rounds=1, semifinal_players=4)
    round_play(rounds.round_seat_next(tournament=t))
    first = t.entries.order_by("player_id").first()
    adjustments.adjustment_add(
        tournament=t, player_id=first.player_id, points="-2.5", reason="late"
    )
    entries.entry_withdraw(tournament=t, player_id=first.player_id)
    out, _err = run("standings", t.slug)
    lines = out.splitlines()
    assert "ranked by total score" in lines[0]
    header, _rule, *rows = lines[1:]
    assert header.split() == [
        "#",
        "Player",
        "Club",
        "Score",
        "Adj.",
        "Games",
        "Won",
        "Avg",
        "Racks",
        "TP",
    ]
    assert len(rows) == 8
    # Right-aligned numbers: every row's score ends under the "Score" heading.
    end = header.index("Score") + len("Score")
    assert all(row[end - 1] != " " and row[end] == " " for row in rows)
    assert "(withdrawn)" in out and "-2.50" in out

    stages.stage_seat(tournament=t, stage="semifinal")
    # The placings name the stage their order comes from (one ranking everywhere).
    out, _err = run("standings", t.slug, "--places")
    assert "Semi-finals" in out and "semifinal" in out
    assert run("standings", t.slug)[0] == out
    out, _err = run("standings", t.slug, "--stage", "semifinal")
    assert "Standings (semifinal)" in out


def test_standings_of_an_empty_tournament():
    t = tournament_entered(players=0)
    out, _err = run("standings", t.slug)
    assert "No players entered." in out


def test_standings_of_a_league_mark_players_short_of_the_minimum_games():
    t = tournament_entered(
        players=6, kind="league", ranking="average", min_games=2, games_per_round=1, rounds=5
    )
    ids = sorted(t.entries.values_list("player_id", flat=True))
    entries.attendance_set(tournament=t, player_ids=ids[:4])
    round_play(rounds.round_seat_next(tournament=t))
    out, _err = run("standings", t.slug)
    assert "ranked by average score per game" in out
    assert out.count(" *") == 6
    assert "* fewer than 2 games" in out

"""The expectation table of the role matrix: for every route and method, what
each role gets in each scope (roles and scopes: ``tests.role_world``).

Vocabulary:

* an *outcome* is ``ALLOWED`` (2xx or 3xx; for a write also 400, 409, 412,
  413, 422 or 428, the answers to a minimal body once the rights check has let
  it through), ``REFUSED`` (401 or 403, or a page's redirect to a login page),
  ``HIDDEN`` (404) or one exact status (an ``int``: 405, 409, 410);
  ``IGNORED`` is an allowed answer that leaves the owner's rights untouched
  (visibility, organisers, invitations): a settings form shows a co-organiser
  those fields disabled, so what it posts for them is not taken;
* a *known mismatch* (``Known``) is a cell where the code answers otherwise
  than the rights of the design: the test expects the right outcome and is
  marked ``xfail(strict=True)`` with the finding's name, so it starts to pass
  (and must lose its mark) the day the finding is fixed;
* a *row* (``Row``) is one key's cells: scope -> role -> outcome;
* the rights: reads of public tournaments need no login; a private tournament
  answers 404 to all but its organisers (owner, accepted co-organisers,
  staff); writes need an organiser; deleting a tournament, changing its
  visibility and its list of organisers are the owner's (and staff's) alone;
  an invited co-organiser who has not accepted has no organiser right; a match
  link enters its own table's games and reads that table, nothing else; a
  replaced link opens nothing (its page says it was replaced: 410).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tests.role_world import ROLES

ALLOWED = "allowed"
REFUSED = "refused"
HIDDEN = "hidden"
IGNORED = "ignored"
Outcome = str | int


@dataclass(frozen=True)
class Known:
    """The right outcome, where the code answers otherwise (``finding`` names it)."""

    outcome: Outcome
    finding: str


Cell = Outcome | Known
Row = dict[str, dict[str, Cell]]

ORGANISERS = ("owner", "co_organiser", "staff")
OWNERS = ("owner", "staff")
LOGGED_IN_OUTSIDERS = ("stranger", "invited")
ANONYMOUS_LIKE = ("anonymous", "match_link", "old_link")

# Findings: where the code disagrees with the rights, each a ``Known`` cell
# naming it (none at the moment: the co-organiser's deleting the tournament,
# changing ``public`` and changing the organisers through the API were found on
# the code before the co-organiser invitations, and are fixed there).


def cells(default: Cell, **by_role: Cell) -> dict[str, Cell]:
    unknown = set(by_role) - set(ROLES)
    assert not unknown, f"no such role: {unknown}"
    return {role: by_role.get(role, default) for role in ROLES}


def each(roles: Iterable[str], outcome: Cell) -> dict[str, Cell]:
    return dict.fromkeys(roles, outcome)


def everyone(outcome: Cell, scopes: Iterable[str] = ("site",)) -> Row:
    return {scope: cells(outcome) for scope in scopes}


def read(
    scopes: Iterable[str] = ("public", "private"),
    *,
    link_reads: bool = False,
    match_auth: bool = False,
) -> Row:
    """A read of what a scope shows: anyone for a public tournament, its organisers
    (and, ``link_reads``, its table's link) for a private one. ``match_auth``:
    the view reads the match token, so a replaced one is told 401."""
    old = REFUSED if match_auth else None
    row: Row = {}
    for scope in scopes:
        if scope == "private":
            row[scope] = cells(
                HIDDEN,
                **each(ORGANISERS, ALLOWED),
                match_link=ALLOWED if link_reads else HIDDEN,
                old_link=old or HIDDEN,
            )
        else:
            row[scope] = cells(ALLOWED, old_link=old or ALLOWED)
    return row


def organisers(
    scopes: Iterable[str] = ("public", "private"),
    *,
    only: Iterable[str] = ORGANISERS,
    known: Mapping[str, str] | None = None,
    link: Cell = REFUSED,
    fields_ignored: bool = False,
) -> Row:
    """What the organisers (``only``: a narrower set) do or read: the others are
    refused (a login page for the anonymous), or told 404 where they may not see
    the tournament. ``known``: role -> finding, where the code lets that role in.
    ``link``: what the table's own link gets. ``fields_ignored``: the organisers
    left out of ``only`` get the form (``IGNORED``), not a refusal."""
    allowed = set(only)
    row: Row = {}
    for scope in scopes:
        outsider = HIDDEN if scope == "private" else REFUSED
        row[scope] = cells(
            REFUSED,
            **{
                **each(LOGGED_IN_OUTSIDERS, outsider),
                **each(ORGANISERS, IGNORED if fields_ignored else REFUSED),
                **each(allowed, ALLOWED),
                "match_link": link,
            },
        )
        for role, finding in (known or {}).items():
            row[scope][role] = Known(row[scope][role], finding)
    return row


def desk_action(scopes: Iterable[str] = ("public", "private")) -> dict[str, Row]:
    """A desk button's address: GET answers 405 to all; POST is for organisers."""
    return {"GET": everyone(405, scopes), "POST": organisers(scopes)}


def logged_in(scopes: Iterable[str] = ("site",)) -> Row:
    """Anyone logged in (creating something of one's own)."""
    return {scope: cells(ALLOWED, **each(ANONYMOUS_LIKE, REFUSED)) for scope in scopes}


def starter_only() -> Row:
    """A restore job's progress: the user who started it (the owner), 404 for
    every other user, staff included; a login for the anonymous."""
    return {"site": cells(HIDDEN, owner=ALLOWED, **each(ANONYMOUS_LIKE, REFUSED))}


def creator(scopes: Iterable[str] = ("public", "private", "made_by_stranger")) -> Row:
    """Changing a player or a club: its creator and staff (the owner made the
    tournaments' ones, the stranger their own)."""
    row: Row = {}
    for scope in scopes:
        made_by = "stranger" if scope == "made_by_stranger" else "owner"
        sees = {
            "public": ROLES,
            "private": ("owner", "co_organiser", "staff"),
            "made_by_stranger": ("stranger", "staff"),
        }[scope]
        row[scope] = cells(
            HIDDEN,
            **{
                **each(sees, REFUSED),
                **each(ANONYMOUS_LIKE, REFUSED),
                **each((made_by, "staff"), ALLOWED),
            },
        )
    return row


def people_read(scopes: Iterable[str] = ("public", "private", "made_by_stranger")) -> Row:
    """Reading a player or a club: shown with a public tournament; else to its
    creator, the organisers of the tournament it is in, and staff."""
    row: Row = {}
    for scope in scopes:
        if scope == "public":
            row[scope] = cells(ALLOWED)
        elif scope == "private":
            row[scope] = cells(HIDDEN, **each(ORGANISERS, ALLOWED))
        else:
            row[scope] = cells(HIDDEN, stranger=ALLOWED, staff=ALLOWED)
    return row


def invited_only(scopes: Iterable[str] = ("public", "private")) -> Row:
    """An invitation: the invited user's alone (any other user: 404, as if none)."""
    return {
        scope: cells(HIDDEN, **{**each(ANONYMOUS_LIKE, REFUSED), "invited": ALLOWED})
        for scope in scopes
    }


def club_organisers(scopes: Iterable[str] = ("public", "private")) -> Row:
    """What the organisers of the scope's club do (its seasons): its creator (the
    tournament's owner) and staff; a tournament's co-organiser has no right on
    its club. The club of either scope is public, so nobody is told 404."""
    return {scope: cells(REFUSED, owner=ALLOWED, staff=ALLOWED) for scope in scopes}


def club_makers(scopes: Iterable[str] = ("public", "private", "made_by_stranger")) -> Row:
    """What a club's organisers do through the API (the club itself, its members,
    who organises it): its creator (the owner; the stranger for their own club)
    and staff; nobody co-organises a club in this world. Every scope's club is
    public, so the others are refused, not told 404."""
    row: Row = {}
    for scope in scopes:
        maker = "stranger" if scope == "made_by_stranger" else "owner"
        row[scope] = cells(REFUSED, **each((maker, "staff"), ALLOWED))
    return row


def club_makers_find_nobody(
    scopes: Iterable[str] = ("public", "private", "made_by_stranger"),
) -> Row:
    """``club_makers``, where the address names a username that is no invitation or
    co-organiser of the club: its organisers are let through and told 404."""
    row = club_makers(scopes)
    for scope, cells_ in row.items():
        row[scope] = {role: HIDDEN if cell == ALLOWED else cell for role, cell in cells_.items()}
    return row


CLUB_SCOPES = ("public", "private", "made_by_stranger")
TOURNAMENT = ("public", "private")
WITH_FINISHED = ("public", "private", "finished")
TABLE_LINK = ("public", "private")

# ----------------------------------------------------------------------------- the API

API: dict[str, Row] = {
    "auth_token_create POST": everyone(ALLOWED),
    "score_calculate POST": everyone(ALLOWED),
    # Clubs and players: their creator (and staff) change them.
    "clubs_list GET": everyone(ALLOWED),
    "clubs_create POST": logged_in(),
    # A club is public in every scope (a private one: tests/tournaments/api/test_clubs.py);
    # its organisers change it, its members and who organises it.
    "clubs_retrieve GET": everyone(ALLOWED, CLUB_SCOPES),
    "clubs_update PUT": club_makers(),
    "clubs_partial_update PATCH": club_makers(),
    "clubs_destroy DELETE": club_makers(),
    "clubs_members_list GET": everyone(ALLOWED, CLUB_SCOPES),
    "clubs_members_create POST": club_makers(),
    "clubs_members_destroy DELETE": club_makers(),
    "clubs_invitations_create POST": club_makers(),
    "clubs_invitations_withdraw DELETE": club_makers_find_nobody(TOURNAMENT),
    "clubs_co_organisers_remove DELETE": club_makers_find_nobody(TOURNAMENT),
    # One's club invitations: the id is a tournament invitation's, no club's.
    "club_invitations_list GET": logged_in(),
    "club_invitations_retrieve GET": {
        scope: cells(HIDDEN, **each(ANONYMOUS_LIKE, REFUSED)) for scope in ("public", "private")
    },
    "club_invitations_accept_create POST": {
        scope: cells(HIDDEN, **each(ANONYMOUS_LIKE, REFUSED)) for scope in ("public", "private")
    },
    "club_invitations_decline_create POST": {
        scope: cells(HIDDEN, **each(ANONYMOUS_LIKE, REFUSED)) for scope in ("public", "private")
    },
    "players_list GET": everyone(ALLOWED),
    "players_create POST": logged_in(),
    "players_retrieve GET": people_read(),
    # A player's statistics: whoever may read the player (the games counted
    # are those the caller may see: tests/tournaments/api/test_player_stats.py).
    "players_stats_retrieve GET": people_read(),
    # Ratings: public reads (every rated game is of a public tournament); a
    # player's history to whoever may read the player.
    "ratings_list GET": everyone(ALLOWED),
    "players_ratings_list GET": people_read(),
    "players_update PUT": creator(),
    "players_partial_update PATCH": creator(),
    "players_destroy DELETE": creator(),
    # Tournaments.
    "tournaments_list GET": everyone(ALLOWED),
    "tournaments_create POST": logged_in(),
    "tournaments_import_create POST": logged_in(),
    # A large restore's progress: its starter's (the owner's) alone.
    "tournaments_imports_retrieve GET": starter_only(),
    "tournaments_retrieve GET": read(),
    "tournaments_update PUT": organisers(),
    "tournaments_partial_update PATCH": organisers(),
    "tournaments_partial_update PATCH [name]": organisers(WITH_FINISHED),
    "tournaments_partial_update PATCH [public]": organisers(only=OWNERS),
    "tournaments_partial_update PATCH [organisers]": organisers(only=OWNERS),
    "tournaments_destroy DELETE": organisers(only=OWNERS),
    "tournaments_finish_create POST": organisers(),
    "tournaments_reopen_create POST": organisers(WITH_FINISHED),
    "tournaments_export_retrieve GET": organisers(),
    "tournaments_audit_list GET": organisers(),
    "tournaments_standings_retrieve GET": read(),
    "tournaments_entries_list GET": read(),
    "tournaments_entries_create POST": organisers(WITH_FINISHED),
    "tournaments_entries_partial_update PATCH": organisers(),
    "tournaments_entries_destroy DELETE": organisers(),
    "tournaments_attendance_create POST": organisers(),
    "tournaments_adjustments_list GET": read(),
    "tournaments_adjustments_create POST": organisers(WITH_FINISHED),
    "tournaments_adjustments_destroy DELETE": organisers(),
    "tournaments_rounds_list GET": read(),
    "tournaments_rounds_create POST": organisers(WITH_FINISHED),
    # Rounds.
    "rounds_retrieve GET": read(),
    "rounds_reseat_create POST": organisers(),
    "rounds_seating_update PUT": organisers(),
    # Matches: the table's link reads its own table and records its games.
    "matches_retrieve GET": read(link_reads=True, match_auth=True),
    "matches_retrieve GET [other table]": read(match_auth=True),
    "matches_history_list GET": read(link_reads=True, match_auth=True),
    "matches_by_token_retrieve GET": {
        scope: cells(REFUSED, match_link=ALLOWED) for scope in TABLE_LINK
    },
    "matches_token_create POST": organisers(),
    "matches_games_list GET": read(link_reads=True, match_auth=True),
    "matches_games_list GET [other table]": read(match_auth=True),
    "matches_games_create POST": organisers(link=ALLOWED),
    "matches_games_create POST [other table]": {
        **organisers(),
        # Another table of a private tournament: not seen by this link either.
        "private": organisers(("private",))["private"] | {"match_link": HIDDEN},
    },
    "matches_games_create POST [finished]": {
        "finished": organisers(("finished",), link=409)["finished"]
    },
    # Games: the link reads its own table's; only organisers correct, delete,
    # confirm or restore them.
    "games_list GET": {scope: cells(ALLOWED, old_link=REFUSED) for scope in TABLE_LINK},
    "games_retrieve GET": read(link_reads=True, match_auth=True),
    "games_retrieve GET [other table]": read(match_auth=True),
    "games_update PUT": organisers(),
    "games_destroy DELETE": organisers(),
    "games_confirm POST": organisers(),
    "games_restore POST": organisers(),
    # Invitations to co-organise: the invited user answers their own; the owner
    # withdraws one and removes a co-organiser (who may also leave: the address
    # names the co-organiser, so they are let through).
    "invitations_list GET": logged_in(),
    "invitations_retrieve GET": invited_only(),
    "invitations_accept_create POST": invited_only(),
    "invitations_decline_create POST": invited_only(),
    "tournaments_invitations_withdraw DELETE": organisers(only=OWNERS),
    "tournaments_co_organisers_remove DELETE": organisers(),
    # Club seasons: read with their club (public in both scopes: a private
    # club's seasons are tests/tournaments/api/test_seasons.py's); the club's
    # organisers add, change and delete them.
    "clubs_seasons_list GET": everyone(ALLOWED, TOURNAMENT),
    "clubs_seasons_create POST": club_organisers(),
    "seasons_retrieve GET": everyone(ALLOWED, TOURNAMENT),
    "seasons_standings_retrieve GET": everyone(ALLOWED, TOURNAMENT),
    "seasons_update PUT": club_organisers(),
    "seasons_partial_update PATCH": club_organisers(),
    "seasons_destroy DELETE": club_organisers(),
}

# ----------------------------------------------------------------------------- pages and files


def _pages(name: str, rows: Mapping[str, Row]) -> dict[str, Row]:
    return {f"{name} {method}": row for method, row in rows.items()}


def page_read(scopes: Iterable[str] = TOURNAMENT, *, post: Outcome | None = None) -> dict[str, Row]:
    """A public page of a tournament; POST answers ``post`` (405 where the view
    is GET only) or, when None, is read like GET."""
    rows = {"GET": read(scopes)}
    rows["POST"] = read(scopes) if post is None else everyone(post, scopes)
    return rows


def desk_page(scopes: Iterable[str] = TOURNAMENT, *, post: Outcome | None = None) -> dict[str, Row]:
    """An organiser's page; POST is for organisers too unless ``post`` (405)."""
    return {
        "GET": organisers(scopes),
        "POST": organisers(scopes) if post is None else everyone(post, scopes),
    }


def token_page(*, get: Row | None = None, post: Row | None = None) -> dict[str, Row]:
    """A table's page: anyone holding the link (all roles but ``old_link``, who
    holds the replaced one and is told so: 410)."""
    held = {scope: cells(ALLOWED, old_link=410) for scope in TABLE_LINK}
    return {"GET": get or held, "POST": post or held}


WEB: dict[str, Row] = {
    **_pages("web:home", {"GET": everyone(ALLOWED), "POST": everyone(ALLOWED)}),
    **_pages("web:calculator", {"GET": everyone(ALLOWED), "POST": everyone(ALLOWED)}),
    **_pages("web:timer", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("web:ratings", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("web:player", {"GET": people_read(), "POST": everyone(405, ("public",))}),
    **_pages("web:login", {"GET": everyone(ALLOWED), "POST": everyone(ALLOWED)}),
    **_pages("web:logout", {"GET": everyone(405), "POST": everyone(ALLOWED)}),
    # Accounts: sign-up and a forgotten password are anyone's (a signed-in
    # user's sign-up is sent home); changing one's password needs a login.
    **_pages("web:signup", {"GET": everyone(ALLOWED), "POST": everyone(ALLOWED)}),
    **_pages("web:password-change", {"GET": logged_in(), "POST": logged_in()}),
    **_pages(
        "web:password-change-done",
        {"GET": logged_in(), "POST": {"site": cells(405, **each(ANONYMOUS_LIKE, REFUSED))}},
    ),
    **_pages("web:password-reset", {"GET": everyone(ALLOWED), "POST": everyone(ALLOWED)}),
    **_pages("web:password-reset-done", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("web:password-reset-confirm", {"GET": everyone(ALLOWED), "POST": everyone(ALLOWED)}),
    **_pages("web:password-reset-complete", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("web:invitations", {"GET": logged_in(), "POST": logged_in()}),
    **_pages(
        "web:invitation-accept",
        {
            "GET": {scope: cells(405, **each(ANONYMOUS_LIKE, REFUSED)) for scope in TOURNAMENT},
            "POST": invited_only(),
        },
    ),
    **_pages(
        "web:invitation-decline",
        {
            "GET": {scope: cells(405, **each(ANONYMOUS_LIKE, REFUSED)) for scope in TOURNAMENT},
            "POST": invited_only(),
        },
    ),
    **_pages("web:tournament-new", {"GET": logged_in(), "POST": logged_in()}),
    # Clubs (the scope's club, public, its creator the owner): the list and the
    # page anyone's; the rest its organisers'; an invitation's answer the invited
    # user's (the id is a tournament invitation's, so 404 for every user).
    **_pages("web:clubs", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("web:club-new", {"GET": logged_in(), "POST": logged_in()}),
    **_pages("web:club", {"GET": everyone(ALLOWED, TOURNAMENT), "POST": everyone(405, TOURNAMENT)}),
    **_pages("web:club-edit", {"GET": club_organisers(), "POST": club_organisers()}),
    **_pages("web:club-delete", {"GET": club_organisers(), "POST": club_organisers()}),
    **_pages("web:club-invite", {"GET": everyone(405, TOURNAMENT), "POST": club_organisers()}),
    **_pages(
        "web:club-invitation-withdraw",
        {"GET": everyone(405, TOURNAMENT), "POST": club_organisers()},
    ),
    **_pages(
        "web:club-co-organiser-remove",
        {"GET": everyone(405, TOURNAMENT), "POST": club_organisers()},
    ),
    **_pages("web:club-members", {"GET": club_organisers(), "POST": club_organisers()}),
    **_pages("web:club-members-import", {"GET": club_organisers(), "POST": club_organisers()}),
    **_pages(
        "web:club-members-import-confirm",
        {"GET": everyone(405, TOURNAMENT), "POST": club_organisers()},
    ),
    **_pages(
        "web:club-member-leave", {"GET": everyone(405, TOURNAMENT), "POST": club_organisers()}
    ),
    **_pages(
        "web:club-invitation-accept",
        {
            "GET": everyone(405, TOURNAMENT),
            "POST": {scope: cells(HIDDEN, **each(ANONYMOUS_LIKE, REFUSED)) for scope in TOURNAMENT},
        },
    ),
    **_pages(
        "web:club-invitation-decline",
        {
            "GET": everyone(405, TOURNAMENT),
            "POST": {scope: cells(HIDDEN, **each(ANONYMOUS_LIKE, REFUSED)) for scope in TOURNAMENT},
        },
    ),
    **_pages("web:tournament-restore", {"GET": logged_in(), "POST": logged_in()}),
    **_pages(
        "web:tournament-restore-job", {"GET": starter_only(), "POST": everyone(405, ("site",))}
    ),
    **_pages("web:tournament", page_read()),
    **_pages("web:round", page_read()),
    # The standings view finds the tournament before it looks at the method.
    **_pages(
        "web:standings",
        {
            "GET": read(),
            "POST": {
                "public": cells(405),
                "private": cells(HIDDEN, **each(ORGANISERS, 405)),
            },
        },
    ),
    **_pages("web:screen", page_read()),
    **_pages("web:screen-state", page_read()),
    **_pages("web:tables", page_read()),
    **_pages("web:tournament-edit", desk_page()),
    "web:tournament-edit POST [name]": organisers(),
    "web:tournament-edit POST [public]": organisers(only=OWNERS, fields_ignored=True),
    "web:tournament-edit POST [organisers]": organisers(only=OWNERS, fields_ignored=True),
    **_pages("web:tournament-finish", desk_page()),
    **_pages("web:tournament-reopen", desk_action(WITH_FINISHED)),
    **_pages("web:organise", desk_page()),
    **_pages("web:desk-backup", desk_page(post=405)),
    **_pages("web:round-seat", desk_action()),
    **_pages("web:round-clock-start", desk_action()),
    **_pages("web:round-clock-pause", desk_action()),
    **_pages("web:round-clock-reset", desk_action()),
    **_pages("web:round-reseat", desk_page()),
    **_pages("web:players-swap", desk_action()),
    **_pages("web:entries-add", desk_action()),
    **_pages("web:player-add", desk_action()),
    **_pages("web:players-import", desk_page()),
    **_pages("web:players-import-confirm", desk_action()),
    **_pages("web:entry-withdraw-confirm", desk_page(post=405)),
    **_pages("web:entry-withdraw", desk_action()),
    **_pages("web:entry-category", desk_action()),
    **_pages("web:entry-check-in", desk_action()),
    **_pages("web:entry-check-out", desk_action()),
    **_pages("web:adjustment-add", desk_action()),
    **_pages("web:adjustment-delete", desk_page()),
    **_pages("web:desk-match", desk_page()),
    **_pages("web:desk-game-correct", desk_page()),
    **_pages("web:desk-game-delete", desk_page()),
    **_pages("web:desk-match-link", desk_page()),
    **_pages("web:desk-confirm", desk_page()),
    **_pages("web:desk-game-confirm", desk_action()),
    **_pages("web:desk-game-restore", desk_action()),
    **_pages("web:desk-audit", desk_page()),
    # The table's own pages, by its link.
    **_pages("web:match", token_page()),
    "web:match POST [finished]": {"finished": cells(409, old_link=410)},
    **_pages(
        "web:match-correct",
        token_page(
            get={scope: cells(405) for scope in TABLE_LINK},
            # A correction is the organisers' (the link holder enters, not corrects).
            post={
                scope: cells(REFUSED, **each(ORGANISERS, ALLOWED), old_link=410)
                for scope in TABLE_LINK
            },
        ),
    ),
    **_pages(
        "web:match-mine",
        token_page(
            get={scope: cells(405) for scope in TABLE_LINK},
            post={scope: cells(ALLOWED, old_link=HIDDEN) for scope in TABLE_LINK},
        ),
    ),
    # What the page polls: its version (a 304 while it stands); a replaced link 410.
    **_pages(
        "web:match-state",
        token_page(post={scope: cells(405) for scope in TABLE_LINK}),
    ),
    **_pages(
        "web:match-timer",
        token_page(
            get={scope: cells(ALLOWED, old_link=HIDDEN) for scope in TABLE_LINK},
            post={scope: cells(405) for scope in TABLE_LINK},
        ),
    ),
    **_pages(
        "web:match-manifest",
        token_page(
            get={scope: cells(ALLOWED, old_link=HIDDEN) for scope in TABLE_LINK},
            post={scope: cells(405) for scope in TABLE_LINK},
        ),
    ),
    # Files: score sheets hold the tables' links, so they are the organisers'
    # (tournaments/documents/views.py); the standings and the final report are
    # public with their tournament.
    **_pages("print:round-scoresheets", {"GET": organisers(), "POST": everyone(405, TOURNAMENT)}),
    **_pages("print:standings", page_read(post=405)),
    **_pages("print:report", page_read(post=405)),
    **_pages("print:scoresheet", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    # Club seasons (the scope's club, public): the page and its files anyone's,
    # writes its club's organisers'; an evening's check-in is its tournament's
    # organisers'.
    **_pages(
        "web:season", {"GET": everyone(ALLOWED, TOURNAMENT), "POST": everyone(405, TOURNAMENT)}
    ),
    **_pages(
        "web:season-pdf", {"GET": everyone(ALLOWED, TOURNAMENT), "POST": everyone(405, TOURNAMENT)}
    ),
    **_pages("web:season-new", {"GET": club_organisers(), "POST": club_organisers()}),
    **_pages("web:season-edit", {"GET": club_organisers(), "POST": club_organisers()}),
    **_pages("web:season-delete", {"GET": everyone(405, TOURNAMENT), "POST": club_organisers()}),
    **_pages(
        "web:season-evening-new", {"GET": everyone(405, TOURNAMENT), "POST": club_organisers()}
    ),
    **_pages("web:evening-checkin", desk_page()),
    **_pages("web:evening-checkin-guest", desk_action()),
    # The site's own addresses.
    **_pages("healthz", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("service-worker", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("favicon", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("set_language", {"GET": everyone(ALLOWED), "POST": everyone(ALLOWED)}),
    **_pages("api-schema", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("api-docs", {"GET": everyone(ALLOWED), "POST": everyone(405)}),
    **_pages("rest_framework:login", {"GET": everyone(ALLOWED), "POST": everyone(ALLOWED)}),
    **_pages("rest_framework:logout", {"GET": everyone(405), "POST": everyone(ALLOWED)}),
    # The admin (one family: its index, and a tournament's change page): staff
    # only; the staff user here has no model permission of the admin's own, so
    # Django's admin refuses them a model's pages.
    **_pages(
        "admin:*",
        {
            "GET": {
                "site": cells(REFUSED, staff=ALLOWED),
                "private": cells(REFUSED),
            },
            "POST": {"private": cells(REFUSED)},
        },
    ),
}
TABLE: dict[str, Row] = {**API, **WEB}

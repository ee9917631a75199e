"""Club services: made, changed, deleted; who organises a club; its members.

Each refusal is a user error with its field and nothing stored (no club, no
event); each action records one event in the club's own trail, by who did it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ConflictError, NotFoundError, UserError
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import AuditEvent, Club, ClubInvitation, Player
from tournaments.services import clubs
from tournaments.services.co_organisers import NotAllowedError

pytestmark = pytest.mark.django_db
A = AuditEvent.Action


def _trail(club: Club) -> list[tuple[str, str]]:
    return list(
        AuditEvent.objects.filter(club=club).order_by("id").values_list("action", "username")
    )


# ----------------------------------------------------------------------------- made


def test_a_new_club_is_its_creators_with_an_address_and_an_event():
    ann = UserFactory(username="ann")
    club = clubs.club_create(name=" Roskilde RC ", city="Roskilde", created_by=ann)
    assert (club.name, club.slug, club.public, club.created_by) == (
        "Roskilde RC",
        "roskilde-rc",
        True,
        ann,
    )
    assert _trail(club) == [(A.CLUB_CREATED, "ann")]
    second = clubs.club_create(name="Roskilde  RC!", created_by=ann, public=False)
    assert second.slug == "roskilde-rc-2" and not second.public
    # The address of the new-club page is not a club's.
    assert clubs.club_create(name="New", created_by=ann).slug == "new-2"


def test_a_clubs_address_writes_its_letters_without_their_accents():
    ann = UserFactory(username="ann")
    club = clubs.club_create(name="Nørrebro Rummikub Club", created_by=ann)
    assert club.slug == "norrebro-rummikub-club"
    assert clubs.club_create(name="Nörrebro Rummikub Club", created_by=ann).slug == (
        "norrebro-rummikub-club-2"
    )
    assert clubs.club_create(name="Straße", created_by=ann).slug == "strasse"
    # An address already made stays as it is when the name changes.
    old = ClubFactory(name="Ærø RK", slug="r-rk")
    assert clubs.club_update(club=old, user=old.created_by, name="Ærø Rummikub").slug == "r-rk"


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "Taken"}, "name"),
        ({"name": "x" * 121}, "name"),
        ({"name": "Fine", "city": "y" * 121}, "city"),
        ({"name": "Fine", "slug": "taken"}, "slug"),
        ({"name": "Fine", "slug": "new"}, "slug"),
        ({"name": "Fine", "slug": "no spaces"}, "slug"),
        ({"name": "Fine", "slug": "æøå"}, "slug"),
        ({"name": "Fine", "slug": "s" * 81}, "slug"),
    ],
)
def test_a_bad_club_is_refused_at_its_field_and_nothing_stored(given, field):
    ClubFactory(name="Taken", slug="taken")
    before = (Club.objects.count(), AuditEvent.objects.count())
    with pytest.raises(UserError) as refused:
        clubs.club_create(created_by=UserFactory(), **given)
    assert refused.value.field == field
    assert (Club.objects.count(), AuditEvent.objects.count()) == before


# ----------------------------------------------------------------------------- changed


@pytest.fixture
def people() -> dict[str, Any]:
    return {
        "creator": UserFactory(username="creator"),
        "co": UserFactory(username="co"),
        "stranger": UserFactory(username="stranger"),
        "staff": UserFactory(username="staff", is_staff=True),
    }


@pytest.fixture
def club(people) -> Club:
    club = clubs.club_create(name="Odense", city="Odense", created_by=people["creator"])
    club.co_organisers.add(people["co"])
    return club


# who, change -> allowed (True) or refused with 403 (False)
RIGHTS = [
    ("creator", {"city": "Nyborg"}, True),
    ("co", {"city": "Nyborg"}, True),
    ("staff", {"city": "Nyborg"}, True),
    ("stranger", {"city": "Nyborg"}, False),
    ("creator", {"public": False}, True),
    ("staff", {"public": False}, True),
    ("co", {"public": False}, False),
    ("co", {"slug": "odense-2"}, True),
    ("stranger", {"slug": "odense-2"}, False),
]


@pytest.mark.parametrize(("who", "change", "allowed"), RIGHTS)
def test_who_changes_what(people, club, who, change, allowed):
    before = AuditEvent.objects.count()
    if allowed:
        changed = clubs.club_update(club=club, user=people[who], **change)
        assert {k: getattr(changed, k) for k in change} == change
        event = AuditEvent.objects.filter(club=club).latest("id")
        assert (event.action, event.username, event.new) == (
            A.CLUB_CHANGED,
            people[who].username,
            change,
        )
    else:
        with pytest.raises(NotAllowedError):
            clubs.club_update(club=club, user=people[who], **change)
        club.refresh_from_db()
        assert AuditEvent.objects.count() == before
        assert (club.city, club.slug, club.public) == ("Odense", "odense", True)


def test_nothing_changed_records_nothing_and_a_blank_slug_keeps_the_address(people, club):
    before = AuditEvent.objects.count()
    assert (
        clubs.club_update(club=club, user=people["stranger"], city="Odense", slug="").slug
        == "odense"
    )
    assert AuditEvent.objects.count() == before


def test_a_rename_is_told_to_the_tournaments_showing_the_club(people, club):
    named = TournamentFactory(club=club)
    elsewhere = TournamentFactory()
    EntryFactory(tournament=elsewhere, player=PlayerFactory(club=club))
    unrelated = TournamentFactory()
    clubs.club_update(club=club, user=people["creator"], name="Odense RK", public=False)
    for tournament in (named, elsewhere):
        event = tournament.audit.get(action=A.CLUB_CHANGED)
        # Visibility is the club's own business: the tournaments hear of its name.
        assert (event.old, event.new) == ({"name": "Odense"}, {"name": "Odense RK"})
    assert not unrelated.audit.exists()


def test_deleting_is_the_creators_and_leaves_players_and_tournaments(people, club):
    player = PlayerFactory(club=club)
    tournament = TournamentFactory(club=club)
    with pytest.raises(NotAllowedError):
        clubs.club_delete(club=club, user=people["co"])
    pk = club.pk
    clubs.club_delete(club=club, user=people["creator"])
    player.refresh_from_db()
    tournament.refresh_from_db()
    assert (player.club_id, tournament.club_id) == (None, None)
    assert tournament.audit.get(action=A.CLUB_DELETED).old == {"name": "Odense", "city": "Odense"}
    assert not AuditEvent.objects.filter(club_id=pk).exists()  # the trail went with it


# ----------------------------------------------------------------------------- who organises it


def test_an_invitation_sent_accepted_and_the_co_organiser_leaving(people, club):
    ann = UserFactory(username="ann")
    invitation = clubs.club_invitation_send(club=club, by=people["creator"], username=" ann ")
    assert clubs.club_invitation_send(club=club, by=people["creator"], username="ann") == invitation
    with pytest.raises(NotAllowedError):
        clubs.club_invitation_accept(invitation=invitation, user=people["stranger"])
    assert clubs.club_invitation_accept(invitation=invitation, user=ann) == club
    assert ann in club.co_organisers.all()
    with pytest.raises(ConflictError):
        clubs.club_invitation_send(club=club, by=people["creator"], username="ann")
    clubs.club_co_organiser_remove(club=club, by=ann, username="ann")  # leaving
    assert ann not in club.co_organisers.all()
    assert _trail(club)[1:] == [
        (A.INVITATION_SENT, "creator"),
        (A.INVITATION_ACCEPTED, "ann"),
        (A.CO_ORGANISER_REMOVED, "ann"),
    ]


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (
            lambda c, p: clubs.club_invitation_send(club=c, by=p["co"], username="x"),
            NotAllowedError,
        ),
        (lambda c, p: clubs.club_invitation_send(club=c, by=p["creator"], username=""), UserError),
        (
            lambda c, p: clubs.club_invitation_send(club=c, by=p["creator"], username="u" * 151),
            UserError,
        ),
        (
            lambda c, p: clubs.club_invitation_send(club=c, by=p["creator"], username="creator"),
            UserError,
        ),
        (
            lambda c, p: clubs.club_invitation_send(club=c, by=p["creator"], username="co"),
            ConflictError,
        ),
        (
            lambda c, p: clubs.club_invitation_withdraw(club=c, by=p["creator"], username="nobody"),
            NotFoundError,
        ),
        (
            lambda c, p: clubs.club_co_organiser_remove(club=c, by=p["stranger"], username="co"),
            NotAllowedError,
        ),
        (
            lambda c, p: clubs.club_co_organiser_remove(club=c, by=p["creator"], username="x"),
            NotFoundError,
        ),
    ],
)
def test_refusals_about_organisers_store_nothing(people, club, call, error):
    before = (
        ClubInvitation.objects.count(),
        club.co_organisers.count(),
        AuditEvent.objects.count(),
    )
    with pytest.raises(error):
        call(club, people)
    assert (
        ClubInvitation.objects.count(),
        club.co_organisers.count(),
        AuditEvent.objects.count(),
    ) == before


def test_a_declined_or_withdrawn_invitation_goes(people, club):
    first = clubs.club_invitation_send(club=club, by=people["creator"], username="stranger")
    clubs.club_invitation_decline(invitation=first, user=people["stranger"])
    clubs.club_invitation_send(club=club, by=people["staff"], username="later")
    clubs.club_invitation_withdraw(club=club, by=people["creator"], username="later")
    assert not ClubInvitation.objects.exists()
    assert [a for a, _ in _trail(club)][-2:] == [A.INVITATION_SENT, A.INVITATION_WITHDRAWN]
    with pytest.raises(ConflictError):
        clubs.club_invitation_decline(invitation=first, user=people["stranger"])


# ----------------------------------------------------------------------------- members


def test_members_added_new_or_own_and_leaving(people, club):
    new = clubs.member_add(club=club, user=people["co"], name=" Bo ")
    assert (new.name, new.club, new.created_by) == ("Bo", club, people["co"])
    own = PlayerFactory(name="Cy", created_by=people["co"])
    assert clubs.member_add(club=club, user=people["co"], player=own).club == club
    with pytest.raises(ConflictError):
        clubs.member_add(club=club, user=people["co"], player=own)
    left = clubs.member_remove(club=club, player=own, user=people["creator"])
    assert left.club is None
    assert [a for a, _ in _trail(club)][1:] == [A.MEMBER_ADDED, A.MEMBER_ADDED, A.MEMBER_REMOVED]


@pytest.mark.parametrize(
    ("who", "target", "error"),
    [
        ("stranger", "new", NotAllowedError),  # no organiser
        ("co", "others", NotAllowedError),  # a player not theirs to change
        ("co", "blank", UserError),
    ],
)
def test_members_refused(people, club, who, target, error):
    others = PlayerFactory(name="Dee", created_by=people["stranger"])
    before = (Player.objects.filter(club=club).count(), AuditEvent.objects.count())
    with pytest.raises(error):
        if target == "others":
            clubs.member_add(club=club, user=people[who], player=others)
        else:
            clubs.member_add(club=club, user=people[who], name="" if target == "blank" else "Eve")
    assert (Player.objects.filter(club=club).count(), AuditEvent.objects.count()) == before


def test_only_a_member_leaves(people, club):
    with pytest.raises(NotFoundError):
        clubs.member_remove(club=club, player=PlayerFactory(), user=people["creator"])
    member = PlayerFactory(club=club, created_by=people["stranger"])
    # The player's creator may take them out of a club they do not organise.
    assert clubs.member_remove(club=club, player=member, user=people["stranger"]).club is None


def test_members_imported_with_the_desks_preview(people, club):
    PlayerFactory(name="Ann", club=club, created_by=people["creator"])
    text = "name;club\nAnn;Elsewhere\nBo;\n\nCy\n"
    preview = clubs.members_import_preview(club=club, text=text, user=people["creator"])
    assert [(line.number, line.name, line.player is not None) for line in preview.lines] == [
        (2, "Ann", True),
        (3, "Bo", False),
        (5, "Cy", False),
    ]
    assert not preview.problems
    result = clubs.members_import(club=club, text=text, user=people["creator"])
    assert sorted(p.name for p in result.created) == ["Bo", "Cy"]
    assert sorted(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Ann",
        "Bo",
        "Cy",
    ]
    assert not Club.objects.exclude(pk=club.pk).exists()  # no club made by the import
    event = AuditEvent.objects.filter(club=club, action=A.MEMBER_ADDED).get()
    assert event.new["names"] == ["Bo", "Cy"]


def test_a_members_file_with_a_problem_imports_nothing(people, club):
    text = "Ann\n" + "x" * 200 + "\nAnn\n"
    preview = clubs.members_import_preview(club=club, text=text, user=people["co"])
    assert sorted(number for number, *_ in preview.problems) == [2, 3]
    with pytest.raises(UserError):
        clubs.members_import(club=club, text=text, user=people["co"])
    assert not Player.objects.exists()
    with pytest.raises(NotAllowedError):
        clubs.members_import(club=club, text="Eve\n", user=people["stranger"])


@settings(max_examples=30, deadline=None)
@given(names=st.lists(st.text(alphabet="ab cæ", max_size=6), min_size=1, max_size=6))
def test_a_members_file_keeps_its_lines(names):
    """Whatever the names, the preview lists each non-blank line under its own number,
    with its name as written (trimmed), in this club."""
    club = Club.objects.get_or_create(name='Club, "quoted"', slug="quoted")[0]
    preview = clubs.members_import_preview(club=club, text="\n".join(names), user=None)
    expected = [
        (number, " ".join(name.split()))
        for number, name in enumerate(names, start=1)
        if name.strip() and not (number == 1 and name.strip().casefold() == "name")
    ]
    assert [(line.number, line.name) for line in preview.lines] == expected
    assert {line.club for line in preview.lines} <= {club.name}


def test_an_imported_club_named_new_gets_an_address_of_its_own() -> None:
    from tournaments.services.club_slugs import club_slugs_free

    assert club_slugs_free(["New", "new", "Odense"]) == ["new-2", "new-3", "odense"]
    assert club_slugs_free(["Ærø", "Aero", "Århus"]) == ["aero", "aero-2", "arhus"]

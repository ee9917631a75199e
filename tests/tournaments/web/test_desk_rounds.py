"""The desk's rounds and stages: the next-step panel through a whole small event,
seating the semi-finals and the final, re-seating after a confirmation, swapping
two players, and where the browser lands after each action."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, round_play, tournament_entered
from tests.tournaments.web.support import play
from tournaments.models import Round, Tournament
from tournaments.selectors.entries import entries_of
from tournaments.selectors.progress import progress_for, progress_of
from tournaments.selectors.rounds import rounds_for, rounds_listed

pytestmark = pytest.mark.django_db


def desk_url(t: Tournament) -> str:
    return f"/t/{t.slug}/organise/"


def facts_agree(t: Tournament) -> None:
    """The desk's facts (from what it has read) are those ``progress_for`` reads."""
    listed = rounds_listed(tournament=t)
    latest = list(rounds_for(tournament=t, numbers=[r.number for r in listed[-1:]]))
    shown = progress_of(
        tournament=t,
        entries=list(entries_of(tournament=t)),
        rounds=listed,
        latest=latest[0] if latest else None,
    )
    assert shown == progress_for(tournament=t)


def panel(client: Client, t: Tournament) -> str:
    """The next-step panel's status line, whitespace collapsed."""
    facts_agree(t)
    page = client.get(desk_url(t)).content.decode()
    found = re.search(r'<p class="next-step-status">(.*?)</p>', page, re.S)
    assert found, "no next-step panel"
    return " ".join(found.group(1).split())


def next_step(client: Client, t: Tournament) -> str:
    """The next-step panel's HTML."""
    page = client.get(desk_url(t)).content.decode()
    return page[page.index('id="next-step"') : page.index('id="rounds"')]


def last_round(t: Tournament) -> Round:
    return t.round_set.order_by("-number").first()


def tables(round_: Round) -> list[list[int]]:
    return [
        list(m.seats.order_by("position").values_list("player_id", flat=True))
        for m in round_.matches.order_by("table")
    ]


def round_finish(round_: Round) -> None:
    """Play every game still missing in the round."""
    for match in round_.matches.order_by("table"):
        left = round_.games_per_match - match.games.count()
        if left:
            play(match, games=left, seed=match.table)


def seat(client: Client, t: Tournament, stage: str = "") -> str:
    """Post "seat" (a stage if given); the message shown on the desk after it."""
    response = client.post(f"{desk_url(t)}seat/", {"stage": stage} if stage else {})
    assert response.status_code == 302
    assert response["Location"] == desk_url(t)
    page = client.get(response["Location"]).content.decode()
    shown = re.search(r'<div class="messages">(.*?)</div>', page, re.S)
    return " ".join(shown.group(1).split()) if shown else ""


@pytest.fixture
def event(client: Client) -> tuple[Client, Tournament]:
    """Eight players, two qualifying rounds of two games, semi-finals of eight."""
    t = tournament_entered(players=8, rounds=2, games_per_round=2, semifinal_players=8)
    client.force_login(t.owner)
    return client, t


def test_the_panel_walks_a_small_event_from_players_to_finished(client: Client) -> None:
    empty = TournamentFactory()
    client.force_login(empty.owner)
    assert panel(client, empty) == "No players yet: add players."
    assert 'href="#players"' in client.get(desk_url(empty)).content.decode()

    t = tournament_entered(players=8, rounds=2, games_per_round=2, semifinal_players=8)
    client.force_login(t.owner)
    assert panel(client, t) == "Ready: seat round 1 (8 active players)."
    assert "Round 1 seated." in seat(client, t)
    assert panel(client, t) == "Round 1 of 2: 0 of 2 tables complete."
    first = last_round(t).matches.order_by("table").first()
    play(first, games=2)
    assert panel(client, t) == "Round 1 of 2: 1 of 2 tables complete."
    assert "Still playing: table 2." in client.get(desk_url(t)).content.decode()
    refused = seat(client, t)
    assert "Round 1 is not finished" in refused and "table 2" in refused
    assert t.round_set.count() == 1
    round_finish(last_round(t))
    assert panel(client, t) == "Round 1 of 2 complete: seat round 2."
    seat(client, t)
    round_play(last_round(t))
    assert panel(client, t) == "Round 2 of 2 complete: seat the semi-finals."

    assert "Semi-finals seated as round 3." in seat(client, t, "semifinal")
    semi = last_round(t)
    assert semi.stage == "semifinal" and semi.matches.count() == 2
    assert panel(client, t) == "Semi-finals: 0 of 2 tables complete."
    play(semi.matches.order_by("table").first(), games=2)
    assert panel(client, t) == "Semi-finals: 1 of 2 tables complete."
    assert "Still playing: table 2." in client.get(desk_url(t)).content.decode()
    round_finish(semi)
    assert panel(client, t) == "Semi-finals complete: seat the final."

    assert "Final seated as round 4." in seat(client, t, "final")
    final = last_round(t)
    assert final.stage == "final" and final.matches.count() == 1
    assert panel(client, t) == "Final: 2 games left."
    play(final.matches.get(), games=1)
    assert panel(client, t) == "Final: 1 game left."
    round_finish(final)
    assert panel(client, t) == "Final complete: finish the tournament."
    finish = f"/t/{t.slug}/finish/"
    assert f'href="{finish}"' in next_step(client, t)
    assert client.post(finish)["Location"] == desk_url(t)
    assert panel(client, t) == "Finished: the final placings are on the tournament page."
    assert f'action="/t/{t.slug}/reopen/"' in next_step(client, t)


def test_the_panel_counts_active_players_only(client: Client) -> None:
    t = tournament_entered(players=3)
    t.entries.update(status="absent")
    client.force_login(t.owner)
    assert panel(client, t) == (
        "Only 0 active players: a round needs at least 2. Add players or check them in."
    )


def test_the_panel_offers_the_stage_instead_of_another_qualifying_round(event) -> None:
    client, t = event
    for _number in (1, 2):
        seat(client, t)
        round_play(last_round(t))
    offered = next_step(client, t)
    assert 'name="stage" value="semifinal"' in offered and "Seat the semi-finals" in offered
    assert "Seat round 3" not in offered
    # Without the stage, the service still refuses a third qualifying round.
    assert "raise the number of rounds" in seat(client, t)
    assert t.round_set.count() == 2


def test_without_semi_finals_the_panel_offers_finishing_or_a_final(client: Client) -> None:
    t = tournament_entered(players=5, rounds=1, games_per_round=1)
    client.force_login(t.owner)
    seat(client, t)
    round_play(last_round(t))
    assert panel(client, t) == (
        "Round 1 of 1 complete: finish the tournament, or seat a final for the best players."
    )
    assert 'name="stage" value="final"' in client.get(desk_url(t)).content.decode()
    assert "Final seated as round 2." in seat(client, t, "final")


def test_a_bad_stage_is_refused_with_a_message(event) -> None:
    client, t = event
    assert "not quarterfinal" in seat(client, t, "quarterfinal")
    assert not t.round_set.exists()


def test_progress_is_read_in_three_queries(event, django_assert_num_queries) -> None:
    client, t = event
    seat(client, t)
    round_play(last_round(t))
    with django_assert_num_queries(3):
        facts = progress_for(tournament=t)
    assert facts.last is not None and facts.last.complete and facts.qualifying_seated == 1


# ----------------------------------------------------------------------------- re-seat


def test_reseat_asks_for_confirmation_first(event) -> None:
    client, t = event
    seat(client, t)
    before = tables(last_round(t))
    url = f"{desk_url(t)}rounds/1/reseat/"
    assert f'href="{url}"' in client.get(desk_url(t)).content.decode()
    confirm = client.get(url)
    assert confirm.status_code == 200
    text = confirm.content.decode()
    assert "Re-seat round 1?" in text and f'action="{url}"' in text
    assert tables(last_round(t)) == before  # looking changes nothing
    response = client.post(url)
    assert response["Location"] == desk_url(t)
    assert "Round 1 re-seated." in client.get(desk_url(t)).content.decode()


def test_reseat_is_refused_once_a_result_is_in(event) -> None:
    client, t = event
    seat(client, t)
    round_ = last_round(t)
    play(round_.matches.order_by("table").first(), games=1)
    before = tables(round_)
    url = f"{desk_url(t)}rounds/1/reseat/"
    assert url not in client.get(desk_url(t)).content.decode()
    response = client.get(url)
    assert response["Location"] == desk_url(t)
    assert "can no longer be re-seated" in client.get(desk_url(t)).content.decode()
    client.post(url)
    assert "already has 1 recorded games" in client.get(desk_url(t)).content.decode()
    assert tables(round_) == before
    assert client.get(f"{desk_url(t)}rounds/9/reseat/").status_code == 404


# ----------------------------------------------------------------------------- swap


def test_swap_two_players_between_tables(event) -> None:
    client, t = event
    seat(client, t)
    round_ = last_round(t)
    before = tables(round_)
    tokens = list(round_.matches.order_by("table").values_list("token", flat=True))
    a, b = before[0][1], before[1][2]
    response = client.post(f"{desk_url(t)}rounds/1/swap/", {"player_a": a, "player_b": b})
    assert response.status_code == 302 and response["Location"] == desk_url(t)
    after = tables(round_)
    assert after[0] == [before[0][0], b, *before[0][2:]]
    assert after[1] == [*before[1][:2], a, *before[1][3:]]
    assert list(round_.matches.order_by("table").values_list("token", flat=True)) == tokens
    assert "changed places in round 1." in client.get(desk_url(t)).content.decode()


@pytest.mark.parametrize(
    ("pick", "field", "message"),
    [
        (lambda ts: (ts[0][0], ts[0][0]), "player_b", "Choose two different players."),
        (lambda ts: (ts[0][0], ts[0][1]), "player_b", "Both sit at table 1"),
        (lambda ts: (ts[0][0], ""), "player_b", "This field is required."),
        (lambda ts: (999999, ts[1][0]), "player_a", "Select a valid choice."),
    ],
    ids=["same player", "same table", "missing", "not seated"],
)
def test_swap_refuses_bad_input_at_the_field_and_changes_nothing(
    event, pick, field: str, message: str
) -> None:
    client, t = event
    seat(client, t)
    before = tables(last_round(t))
    a, b = pick(before)
    response = client.post(f"{desk_url(t)}rounds/1/swap/", {"player_a": a, "player_b": b})
    assert response.status_code == 400
    assert message in response.context["swap_form"].errors[field][0]
    assert message in response.content.decode()
    assert "Nothing was swapped" in response.content.decode()
    assert tables(last_round(t)) == before


def test_swap_after_a_result_is_refused_and_changes_nothing(event) -> None:
    client, t = event
    seat(client, t)
    round_ = last_round(t)
    before = tables(round_)
    play(round_.matches.order_by("table").first(), games=1)
    assert 'id="swap"' not in client.get(desk_url(t)).content.decode()
    response = client.post(
        f"{desk_url(t)}rounds/1/swap/", {"player_a": before[0][0], "player_b": before[1][0]}
    )
    assert response.status_code == 400
    assert "already has 1 recorded games" in response.context["swap_form"].non_field_errors()[0]
    # No swap form is drawn any more: the message says why, and points to no form.
    html = response.content.decode()
    assert 'id="swap"' not in html and "see the swap form" not in html
    assert "Nothing was swapped: " in html and "already has 1 recorded games" in html
    assert tables(round_) == before


def test_a_round_of_one_table_offers_no_swap(client: Client) -> None:
    t = tournament_entered(players=4, rounds=1, games_per_round=1)
    client.force_login(t.owner)
    seat(client, t)
    page = client.get(desk_url(t)).content.decode()
    assert "Re-seat round 1…" in page  # the round is untouched
    assert 'id="swap"' not in page and "Swap two players…" not in page


def test_swap_in_an_earlier_round_is_refused(event) -> None:
    client, t = event
    seat(client, t)
    round_play(last_round(t))
    seat(client, t)
    first = t.round_set.get(number=1)
    before = tables(first)
    response = client.post(
        f"{desk_url(t)}rounds/1/swap/", {"player_a": before[0][0], "player_b": before[1][0]}
    )
    assert response.status_code == 400
    assert tables(first) == before
    html = response.content.decode()
    assert "Nothing was swapped: " in html and "see the swap form" not in html
    # Round 2's own swap form, fresh, not round 1's refused one.
    assert f'action="{desk_url(t)}rounds/2/swap/"' in html
    assert response.context["swap_form"].errors == {}
    assert client.post(f"{desk_url(t)}rounds/7/swap/", {}).status_code == 404


# ----------------------------------------------------------------------------- feedback


def test_every_desk_action_lands_at_the_top_of_the_desk(event) -> None:
    client, t = event
    for url, data in [
        ("seat/", {}),
        ("rounds/1/reseat/", {}),
        (f"players/{t.entries.first().player_id}/check-out/", {}),
        (f"players/{t.entries.first().player_id}/check-in/", {}),
        (
            "adjustments/",
            {"player": t.entries.first().player_id, "kind": "bonus", "points": "3", "reason": "x"},
        ),
        ("seat/", {}),  # refused: round 1 is not finished
    ]:
        response = client.post(desk_url(t) + url, data)
        assert response.status_code == 302, url
        assert response["Location"] == desk_url(t), url


def test_messages_show_first_in_the_page_and_can_be_dismissed(event) -> None:
    client, t = event
    client.post(f"{desk_url(t)}seat/")
    page = client.get(desk_url(t)).content.decode()
    assert page.index("Round 1 seated.") < page.index('id="next-step"')
    assert 'class="msg-dismiss' in page and 'class="msg-close"' in page
    refused = client.post(f"{desk_url(t)}seat/")
    page = client.get(refused["Location"]).content.decode()
    assert 'role="alert"><p>Round 1 is not finished' in page


# ----------------------------------------------------------------------------- who


@pytest.mark.parametrize(("who", "status"), [("stranger", 403), ("owner", 302), ("staff", 302)])
def test_rounds_actions_are_for_organisers(event, who: str, status: int) -> None:
    client, t = event
    client.post(f"{desk_url(t)}seat/")
    before = tables(last_round(t))
    a, b = before[0][0], before[1][0]
    client.force_login(
        {"stranger": UserFactory(), "owner": t.owner, "staff": UserFactory(is_staff=True)}[who]
    )
    confirm = client.get(f"{desk_url(t)}rounds/1/reseat/")
    assert confirm.status_code == (403 if status == 403 else 200)
    swap = client.post(f"{desk_url(t)}rounds/1/swap/", {"player_a": a, "player_b": b})
    assert swap.status_code == status
    assert client.post(f"{desk_url(t)}seat/", {"stage": "semifinal"}).status_code == status
    if status == 403:
        assert tables(last_round(t)) == before and t.round_set.count() == 1
    else:
        assert tables(last_round(t)) != before


def test_rounds_actions_send_anonymous_visitors_to_log_in(event) -> None:
    client, t = event
    client.post(f"{desk_url(t)}seat/")
    before = tables(last_round(t))
    client.logout()
    for response in (
        client.get(f"{desk_url(t)}rounds/1/reseat/"),
        client.post(f"{desk_url(t)}rounds/1/reseat/"),
        client.post(f"{desk_url(t)}rounds/1/swap/", {"player_a": before[0][0], "player_b": 1}),
        client.post(f"{desk_url(t)}seat/", {"stage": "final"}),
    ):
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert tables(last_round(t)) == before and t.round_set.count() == 1


def test_a_private_tournament_stays_hidden_from_others(client: Client) -> None:
    t = tournament_entered(players=4, public=False)
    client.force_login(UserFactory())
    assert client.get(f"{desk_url(t)}rounds/1/reseat/").status_code == 404
    assert client.post(f"{desk_url(t)}rounds/1/swap/", {}).status_code == 404

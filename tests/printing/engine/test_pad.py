"""The blank club score pad's parameters: defaults, names, and every refusal."""

from __future__ import annotations

import pytest

from printing.pad import PadSheet, pad_parse
from scoring.errors import UserError

LANGUAGES = ["en", "da", "sv", "nb", "de", "nl"]


def parse(**given: object) -> PadSheet:
    params: dict[str, object] = {
        "players": None,
        "games": None,
        "names": [],
        "language": None,
        "languages": LANGUAGES,
        "default_language": "en",
    }
    params.update(given)
    return pad_parse(**params)


def test_defaults_are_four_players_four_games_blank_names():
    pad = parse()
    assert pad == PadSheet(players=4, games=4, names=("", "", "", ""), language="en")
    assert pad.paper == "A4" and pad.joker_penalty == 30


def test_values_and_names_comma_separated_or_repeated():
    pad = parse(
        players="3",
        games="30",
        names=["Anna, Ben", "Cleo"],
        language="da",
        paper="letter",
        joker="25",
    )
    assert (pad.players, pad.games, pad.names) == (3, 30, ("Anna", "Ben", "Cleo"))
    assert (pad.language, pad.paper, pad.joker_penalty) == ("da", "Letter", 25)


def test_names_fill_seats_in_order_and_set_the_table_size():
    assert parse(names=["Anna,Ben"]).names == ("Anna", "Ben")
    assert parse(names=["Anna"]).players == 2  # one name: a table still has 2 seats
    assert parse(players="4", names=["Anna,,Cleo"]).names == ("Anna", "", "Cleo", "")


def test_default_language_is_the_requests():
    assert parse(default_language="sv").language == "sv"


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"players": "1"}, "players"),
        ({"players": "5"}, "players"),
        ({"players": "four"}, "players"),
        ({"players": "2.5"}, "players"),
        ({"games": "0"}, "games"),
        ({"games": "31"}, "games"),
        ({"games": "-3"}, "games"),
        ({"games": "9" * 400}, "games"),
        ({"joker": "-1"}, "joker"),
        ({"joker": "101"}, "joker"),
        ({"language": "xx"}, "lang"),
        ({"language": "EN"}, "lang"),
        ({"paper": "A3"}, "paper"),
        ({"players": "2", "names": ["Anna,Ben,Cleo"]}, "names"),
        ({"names": ["A" * 41]}, "names"),
    ],
)
def test_bad_parameters_are_refused_with_the_field(given, field):
    with pytest.raises(UserError) as caught:
        parse(**given)
    assert caught.value.field == field
    assert caught.value.status == 400
    assert caught.value.render()  # a message for a person

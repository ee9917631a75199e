"""Form fields for entering a rack, shared by the calculator and the match
entry page: a tile list, or points + jokers. The fields do no checking of
their own beyond types: the rules engine refuses bad racks with the same
messages the API gives."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def count_input(label: str) -> forms.IntegerField:
    # No min/max here: the engine refuses a negative or impossible count
    # itself. The browser's min is only a hint.
    return forms.IntegerField(
        label=label,
        required=False,
        widget=forms.NumberInput(attrs={"min": 0, "inputmode": "numeric", "class": "num"}),
    )


def rack_fields_add(form: forms.Form, *, prefix: str) -> None:
    """Add ``<prefix>_tiles``, ``<prefix>_points`` and ``<prefix>_jokers``."""
    form.fields[f"{prefix}_tiles"] = forms.CharField(
        label=_("Tiles left"),
        required=False,
        max_length=400,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "placeholder": "R7 K13 J",
                "class": "tiles",
            }
        ),
    )
    form.fields[f"{prefix}_points"] = count_input(gettext("Points"))
    form.fields[f"{prefix}_jokers"] = count_input(gettext("Jokers"))

from django.apps import AppConfig


class CalculatorConfig(AppConfig):
    """The score calculator (page and API) and the tile picker every game form shares."""

    name = "calculator"
    verbose_name = "Calculator"

from django.apps import AppConfig
from django.utils.translation import ngettext

from scoring.errors import plural_translation_use


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The rulebook knows no Django: its messages that count are translated with ours.
        plural_translation_use(ngettext)

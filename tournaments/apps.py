from django.apps import AppConfig
from django.utils.translation import ngettext

from scoring.errors import plural_translation_use


def _ratings_replay_enqueue() -> None:
    from tournaments.tasks import ratings_replay_enqueue

    ratings_replay_enqueue()


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The rulebook knows no Django: its messages that count are translated with ours.
        plural_translation_use(ngettext)
        # A long rating replay goes to the task worker.
        from tournaments.services.ratings import ratings_background_use

        ratings_background_use(_ratings_replay_enqueue)

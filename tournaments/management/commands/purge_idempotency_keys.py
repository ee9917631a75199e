"""``manage.py purge_idempotency_keys``: delete the API's expired idempotency keys.

A key is kept 24 hours; after that a retry with it is a new request. Expired
keys are also deleted as the API goes, so running this (from cron, say) only
keeps the table small on a quiet server.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.services.idempotency import idempotency_keys_purge


class Command(BaseCommand):
    help = "Delete the API's idempotency keys older than 24 hours and say how many."

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = idempotency_keys_purge()
        noun = "key" if deleted == 1 else "keys"
        self.stdout.write(f"Deleted {deleted} expired idempotency {noun}.")

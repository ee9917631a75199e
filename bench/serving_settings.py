"""The project's settings as ``make serve`` runs them (debug off), plus the
bench's own route: only bench_recording's gunicorn loads this module."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "serving_urls"

"""Gunicorn settings for ``make serve`` (``gunicorn -c config/gunicorn.py``).

Vocabulary: a *worker* is one gunicorn process serving requests, each with
``GUNICORN_THREADS`` threads; everything else is read from the environment:
``HOST`` and ``PORT`` (where to listen), ``WEB_CONCURRENCY`` (workers),
``GUNICORN_TIMEOUT`` (seconds a request may take before its worker is
restarted). Both logs go to the standard streams (access to stdout, errors to
stderr) through ``config.log_filters.MatchTokenMask``, so no table's private
link reaches them.
"""

from __future__ import annotations

import os


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def workers_default() -> int:
    # Gunicorn's rule of thumb, 2 per core plus one, capped: with SQLite more
    # processes only queue for the one write lock.
    return min(2 * (os.cpu_count() or 1) + 1, 8)


wsgi_app = "config.wsgi:application"
bind = f"{os.environ.get('HOST', '127.0.0.1')}:{_env_int('PORT', 8000)}"
workers = _env_int("WEB_CONCURRENCY", workers_default())
threads = _env_int("GUNICORN_THREADS", 1)
timeout = _env_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = timeout
accesslog = "-"
errorlog = "-"

_MASK = {"()": "config.log_filters.MatchTokenMask"}
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"match_tokens": _MASK},
    "formatters": {
        "generic": {
            "format": "%(asctime)s [%(process)d] [%(levelname)s] %(message)s",
            "datefmt": "[%Y-%m-%d %H:%M:%S %z]",
        },
        # The access line is already formatted by gunicorn (access_log_format).
        "access": {"format": "%(message)s"},
    },
    "handlers": {
        "access": {
            "class": "logging.StreamHandler",
            "formatter": "access",
            "filters": ["match_tokens"],
            "stream": "ext://sys.stdout",
        },
        "error": {
            "class": "logging.StreamHandler",
            "formatter": "generic",
            "filters": ["match_tokens"],
            "stream": "ext://sys.stderr",
        },
    },
    "root": {"level": "INFO", "handlers": ["error"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["error"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["access"], "propagate": False},
    },
}

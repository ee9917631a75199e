"""Gunicorn settings for ``make serve`` (``gunicorn -c config/gunicorn.py``).

Vocabulary: a *worker* is one gunicorn process serving requests, each with
``GUNICORN_THREADS`` threads; everything else is read from the environment:
``HOST`` and ``PORT`` (where to listen), ``WEB_CONCURRENCY`` (workers),
``GUNICORN_TIMEOUT`` (seconds a request may take before its worker is
restarted), ``GUNICORN_MAX_REQUESTS`` (requests a worker serves before it is
replaced by a fresh one, give or take ``GUNICORN_MAX_REQUESTS_JITTER`` so
that the workers are not all replaced at once; 0 never replaces them). A
worker's cache is bounded (``RACKSCORE_CACHE_MAX_MB``); recycling also hands
back what the heap keeps after it (fragments, objects of a big export). Both
logs go to the standard streams (access to stdout, errors to stderr) through
``config.log_filters.MatchTokenMask``, so no table's private link reaches them.
"""

from __future__ import annotations

import gc
import os
from typing import Any


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def workers_default() -> int:
    # One per core, at least two so that one slow request (a PDF not yet
    # cached) never holds the site. Not gunicorn's 2 per core plus one: a
    # request here is CPU work (a recorded game ~5 ms of Python, under 1 ms of
    # waiting on the database), so more processes only fight for the cores.
    # 16 clients recording on 2 cores (bench_recording): 2 workers 307 games/s
    # on SQLite and 211 on PostgreSQL, 3 workers 272 and 176, 5 workers 218 and
    # 150; threads did worse still (2 x 4: 213 and 142).
    return min(max(os.cpu_count() or 1, 2), 8)


wsgi_app = "config.wsgi:application"
# The application is imported once, in the master, and every worker is forked
# from it ready: a recycled worker (max_requests below) serves at once instead
# of spending a second or more of a core importing Django and the project.
preload_app = True


def pre_fork(server: Any, worker: Any) -> None:
    """Before each worker is forked, the loaded application's objects (Django,
    the project, its templates: about 90,000) are moved out of the cyclic
    collector's reach (``gc.freeze``, as Python's documentation advises before
    a fork): a worker's full collections then walk only what its requests
    made, not all of those every time, and leave the shared pages unwritten.
    A 5,000-game player's statistics (bench_stats) took up to 118 ms with
    them walked and at most 81 ms without, the medians alike (68 and 72 ms)."""
    gc.freeze()


bind = f"{os.environ.get('HOST', '127.0.0.1')}:{_env_int('PORT', 8000)}"
workers = _env_int("WEB_CONCURRENCY", workers_default())
threads = _env_int("GUNICORN_THREADS", 1)
timeout = _env_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = timeout
# A fresh worker starts in about a second and fills its cache again from the
# first requests; 2,000 requests is minutes on a busy evening, hours otherwise.
max_requests = _env_int("GUNICORN_MAX_REQUESTS", 2000)
max_requests_jitter = _env_int("GUNICORN_MAX_REQUESTS_JITTER", max_requests // 10)
# The master's control socket (gunicorn's admin commands) is not used here,
# and its one default path in the home folder would be shared by every node
# started on one machine (``make cluster``): none is opened.
control_socket_disable = True
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

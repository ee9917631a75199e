"""config/gunicorn.py: what `make serve` runs, from the environment."""

from __future__ import annotations

import gc
import importlib
import os

import pytest

from config import gunicorn as gunicorn_config


@pytest.fixture(autouse=True)
def _fresh_module_after():
    yield
    importlib.reload(gunicorn_config)  # the environment is back: so are the values


def load(monkeypatch: pytest.MonkeyPatch, **env: str):
    for name in (
        "HOST",
        "PORT",
        "WEB_CONCURRENCY",
        "GUNICORN_THREADS",
        "GUNICORN_TIMEOUT",
        "GUNICORN_MAX_REQUESTS",
        "GUNICORN_MAX_REQUESTS_JITTER",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return importlib.reload(gunicorn_config)


def test_defaults(monkeypatch):
    config = load(monkeypatch)
    assert config.wsgi_app == "config.wsgi:application"
    assert config.bind == "127.0.0.1:8000"
    assert config.workers == min(max(os.cpu_count() or 1, 2), 8)
    assert (config.threads, config.timeout) == (1, 30)
    assert config.accesslog == "-"


def test_everything_from_the_environment(monkeypatch):
    config = load(
        monkeypatch,
        HOST="0.0.0.0",
        PORT="9000",
        WEB_CONCURRENCY="5",
        GUNICORN_THREADS="4",
        GUNICORN_TIMEOUT="90",
    )
    assert (config.bind, config.workers, config.threads, config.timeout) == (
        "0.0.0.0:9000",
        5,
        4,
        90,
    )


def test_workers_are_recycled_at_staggered_times(monkeypatch):
    config = load(monkeypatch)
    assert (config.max_requests, config.max_requests_jitter) == (2000, 200)
    config = load(monkeypatch, GUNICORN_MAX_REQUESTS="500")
    assert (config.max_requests, config.max_requests_jitter) == (500, 50)
    config = load(monkeypatch, GUNICORN_MAX_REQUESTS="0")
    assert config.max_requests == 0  # never


def test_gunicorn_accepts_the_file():
    from gunicorn.config import Config

    config = Config()
    for name, value in vars(gunicorn_config).items():
        if name in config.settings:
            config.set(name, value)
    assert config.logconfig_dict["loggers"]["gunicorn.access"]["handlers"] == ["access"]


def test_workers_are_forked_with_the_loaded_application_frozen():
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        gunicorn_config.pre_fork(None, None)
        # What was loaded before the fork is out of the collector's reach.
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()

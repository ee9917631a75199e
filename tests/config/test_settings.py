"""Production settings: debug off unless asked for, and `check --deploy` clean
with the README's production variables."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def readme_production_variables() -> dict[str, str]:
    """The NAME=value lines of the README's example production environment."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Production\n", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block, "README: the Production section lost its variables"
    variables = dict(line.split("=", 1) for line in block.group(1).splitlines() if "=" in line)
    assert variables["DJANGO_SECRET_KEY"].startswith("<")  # a placeholder, never a real key
    variables["DJANGO_SECRET_KEY"] = secrets.token_urlsafe(50)
    return variables


def bare_environment(**variables: str) -> dict[str, str]:
    """This machine's environment without any Django variable, plus ``variables``."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "DATABASE_URL", "PYTEST_", "WEB_", "GUNICORN_"))
    }
    return {**env, "DJANGO_SETTINGS_MODULE": "config.settings", **variables}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def settings_value(name: str, env: dict[str, str]) -> str:
    out = manage(
        "shell",
        "--no-imports",
        "-c",
        f"from django.conf import settings; print(settings.{name})",
        env=env,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().splitlines()[-1]


def test_check_deploy_is_clean_with_the_readme_variables():
    out = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env=bare_environment(**readme_production_variables()),
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_without_any_variable_the_settings_refuse_to_start_without_a_key():
    out = manage("check", env=bare_environment())
    assert out.returncode != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off" in out.stderr


def test_debug_is_off_unless_asked_for_and_production_protections_are_on():
    env = bare_environment(DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    values = settings_value(
        "DEBUG, settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE, "
        "settings.CSRF_COOKIE_SECURE, settings.SECURE_PROXY_SSL_HEADER",
        env,
    )
    assert values == "False True True True ('HTTP_X_FORWARDED_PROTO', 'https')"


def test_each_protection_and_the_static_root_come_from_the_environment(tmp_path):
    env = bare_environment(
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="600",
        DJANGO_HSTS_PRELOAD="0",
        DJANGO_STATIC_ROOT=str(tmp_path),
    )
    values = settings_value(
        "SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE, settings.SECURE_HSTS_SECONDS, "
        "settings.SECURE_HSTS_INCLUDE_SUBDOMAINS, settings.SECURE_HSTS_PRELOAD, "
        "settings.STATIC_ROOT",
        env,
    )
    assert values == f"False False 600 True False {tmp_path}"


def test_development_turns_debug_on_explicitly():
    env = bare_environment(DJANGO_DEBUG="1")
    assert settings_value("DEBUG, settings.SECURE_SSL_REDIRECT", env) == "True False"


@pytest.mark.django_db
def test_the_https_redirect_spares_the_health_check(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/").status_code == 301
    assert client.get("/healthz").status_code == 200

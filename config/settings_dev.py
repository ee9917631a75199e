"""Development settings: the project's settings with debug on.

For the tools that load the settings where no environment says otherwise:
pytest and mypy's Django plugin (pyproject.toml). Servers and commands use
``config.settings`` itself, with ``DJANGO_DEBUG`` from the environment
(``make run`` sets it). In tests Django's DEBUG is off all the same
(pytest-django); what the debug setting decides at load time (the
development key, plain-HTTP cookies, no HTTPS redirect) stays as in development.
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from config.settings import *  # noqa: F403

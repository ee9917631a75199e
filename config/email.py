"""Outgoing email from one address, ``DJANGO_EMAIL_URL``.

Vocabulary: the *email URL* names how mail leaves the site:

* ``smtp://user:password@host:587``: an SMTP server, upgraded with STARTTLS
  before the password is sent (port 587 when none is named); ``?tls=off``
  speaks plain SMTP, for a relay on the same machine (``smtp://localhost:25?tls=off``);
* ``smtps://user:password@host:465``: SMTP over TLS from the first byte
  (port 465 when none is named);
* ``console:``: each message printed on the server's output (development);
* ``dummy:``: nothing sent.

The user name and password are percent-encoded where they hold ``@``, ``:``
or ``/`` (``smtp://me%40example.org:p%2Fss@host``). ``?from=`` is the
sender's address (``DEFAULT_FROM_EMAIL``), ``?timeout=`` the seconds to wait
for the server (10 by default: a server that does not answer never holds a
request for long). Unset: the console with debug on, nothing sent with it off.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}
DEFAULT_PORTS = {"smtp": 587, "smtps": 465}
DEFAULT_TIMEOUT = 10
OFF = {"0", "off", "false", "no"}


def email_settings(url: str | None, *, debug: bool) -> dict[str, Any]:
    """The ``EMAIL_*`` settings (and ``DEFAULT_FROM_EMAIL`` when ``?from=`` is
    given) that ``url`` names; ``ValueError`` for a URL it cannot be."""
    if not url or not url.strip():
        return {"EMAIL_BACKEND": BACKENDS["console" if debug else "dummy"]}
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in BACKENDS:
        raise ValueError(
            f"DJANGO_EMAIL_URL: unknown scheme {scheme!r} (smtp, smtps, console or dummy)"
        )
    query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    unknown = set(query) - {"from", "timeout", "tls"}
    if unknown:
        raise ValueError(f"DJANGO_EMAIL_URL: unknown option {sorted(unknown)[0]!r}")
    found: dict[str, Any] = {"EMAIL_BACKEND": BACKENDS[scheme]}
    if query.get("from"):
        found["DEFAULT_FROM_EMAIL"] = found["SERVER_EMAIL"] = query["from"]
    if scheme not in DEFAULT_PORTS:
        return found
    if not parts.hostname:
        raise ValueError("DJANGO_EMAIL_URL: an SMTP address names its host")
    try:
        port = parts.port or DEFAULT_PORTS[scheme]
        timeout = int(query.get("timeout", DEFAULT_TIMEOUT))
    except ValueError:
        raise ValueError("DJANGO_EMAIL_URL: the port and timeout are whole numbers") from None
    if timeout < 1:
        raise ValueError("DJANGO_EMAIL_URL: the timeout is at least 1 second")
    plain = query.get("tls", "").strip().lower() in OFF
    found.update(
        EMAIL_HOST=parts.hostname,
        EMAIL_PORT=port,
        EMAIL_HOST_USER=unquote(parts.username or ""),
        EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
        EMAIL_USE_TLS=scheme == "smtp" and not plain,
        EMAIL_USE_SSL=scheme == "smtps",
        EMAIL_TIMEOUT=timeout,
    )
    return found

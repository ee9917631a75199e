"""The security headers every answer carries: what a page may load and run.

Vocabulary: a *policy* is a ``Content-Security-Policy`` value. The site's own
pages get the *strict* one: scripts and styles only from the site's own static
files (no inline ``<script>``, no ``onclick=``, no ``style=`` attribute, no
``<style>`` element: page data travels in ``data-`` attributes and
``json_script`` blocks), images from the site and ``data:`` URIs, no plugins,
no framing, forms posting only to the site. Pages the site does not write
itself get their own policy, as strict as they allow:

- the admin (``/admin/``) and the browsable API (``/api/v1/``): their scripts
  are files already, but their templates carry ``style=`` attributes and a
  ``<style>`` element, so inline styles are allowed there (styles cannot run
  code; scripts stay ``'self'``);
- the API docs (``/api/v1/docs/``, Swagger UI from drf-spectacular's sidecar):
  the split view serves Swagger UI's start-up script as a file of its own, so
  scripts stay ``'self'``; Swagger UI writes inline styles, allowed there.

Beside it every answer carries ``Permissions-Policy`` (no camera, microphone,
location, payment, USB... for any page), naming only the features Chromium
recognises. ``Referrer-Policy`` is Django's
(``SECURE_REFERRER_POLICY``, ``same-origin``: a match page's address, which
holds its private token, never leaves the site in a ``Referer``). An answer
that set its own ``Content-Security-Policy`` keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

STRICT: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# Pages written by Django's admin, DRF and Swagger UI: inline styles allowed, scripts not.
STYLES_INLINE: dict[str, str] = {**STRICT, "style-src": "'self' 'unsafe-inline'"}

# Path prefixes with a policy of their own, longest first; every other path is strict.
POLICIES_BY_PREFIX: tuple[tuple[str, dict[str, str]], ...] = (
    ("/api/v1/", STYLES_INLINE),
    ("/admin/", STYLES_INLINE),
)

# Every powerful feature a page could ask the browser for; none is used. Only
# features Chromium (120 and later) knows: it logs "Unrecognized feature" for
# any other (ambient-light-sensor, bluetooth...), on every page.
FEATURES_DENIED = (
    "accelerometer",
    "autoplay",
    "camera",
    "display-capture",
    "geolocation",
    "gyroscope",
    "hid",
    "magnetometer",
    "microphone",
    "midi",
    "payment",
    "serial",
    "usb",
    "xr-spatial-tracking",
)
PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in FEATURES_DENIED)


def policy_text(directives: dict[str, str]) -> str:
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def policy_for(path: str) -> str:
    """The ``Content-Security-Policy`` for an answer at ``path`` (language prefix or not)."""
    for prefix, directives in POLICIES_BY_PREFIX:
        if path.startswith(prefix):
            return policy_text(directives)
    return policy_text(STRICT)


class SecurityHeadersMiddleware:
    """Adds the policy for the request's path and the permissions policy to every answer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", policy_for(request.path_info))
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response

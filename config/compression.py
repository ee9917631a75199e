"""Answers compressed by the application, except those that carry a secret.

Vocabulary: a *secret* is what lets its holder act: a match token (a table's
private entry link, ``/m/<token>/``, or the ``token`` of an API answer or a
backup) or an API key. *BREACH* is the attack on a compressed answer that
holds both a secret and text an attacker chose: by making the victim's
browser ask again and again with guesses, and watching the answers' sizes,
the attacker reads the secret a character at a time.

Every textual answer (HTML, JSON, JavaScript, CSS, SVG, the web manifest)
leaves gzip-compressed to a client that accepts it, with
``Vary: Accept-Encoding``, through Django's ``GZipMiddleware``, which also
pads each compressed answer with up to 100 random bytes ("Heal the Breach").
An answer is left as it is when it carries a secret: the request is a match
token's (its path ``/m/<token>/...``, or the ``X-Match-Token`` header), or the
body names one (a ``/m/<token>/`` link: the organiser's pages; a ``"token"``
field with a value: the API's matches and rounds for their organisers, a new
API key, a backup). The CSRF token is no such secret: Django masks it with a
new random value in every answer, so no two answers share the text BREACH
would need; forms are compressed. Streamed answers (downloads) and binary
ones (PDFs, images, spreadsheets: compressed already) are left as they are;
whitenoise serves the static files from its own compressed copies.

Tags stay strong: Django's ``GZipMiddleware`` weakens a compressed answer's
``ETag`` (``W/"3"``, the bytes differ from the uncompressed ones), and a weak
tag never satisfies ``If-Match``, so a client that accepts gzip could never
correct a game. Instead the compressed representation gets a strong tag of
its own, the answer's tag with ``GZIP_TAG_SUFFIX`` (``"3-gzip"``), and the
suffix is taken off the tags a request sends back (``If-Match``,
``If-None-Match``) before any view compares them: views only ever see and
make their own tags. A ``304`` to a request whose tags carried the suffix
carries it too, so the client's stored tag stays the one it revalidates with.
"""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

# Content types worth compressing; anything else is binary or compressed already.
TEXTUAL = re.compile(
    r"^(?:text/|application/(?:json|javascript|xml|manifest\+json|problem\+json|"
    r"vnd\.oai\.openapi(?:\+json)?)|image/svg\+xml)",
    re.IGNORECASE,
)
# A match page's path (under a language prefix too): the token is in the request.
MATCH_PATH = re.compile(r"(?:^|/)m/[^/]+/")
MATCH_TOKEN_HEADER = "X-Match-Token"
# A secret named in a body: a match link, or a JSON "token" field with a value
# (null is no secret). Tokens are URL-safe base64. Two patterns, each starting
# with its own literal, scan a 0.9 MB standings page in about 3 ms together
# (one alternation of both: 27 ms); compressing it costs 14 ms.
SECRETS_IN_BODY = (re.compile(rb"/m/[A-Za-z0-9_-]+/"), re.compile(rb'"token"\s*:\s*"'))


def carries_secret(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether the answer holds a secret: its request names a match token, or its body does."""
    if MATCH_PATH.search(request.path) or MATCH_TOKEN_HEADER in request.headers:
        return True
    content: bytes = getattr(response, "content", b"")
    return any(pattern.search(content) for pattern in SECRETS_IN_BODY)


def compressible(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether the answer is textual, held whole, and free of secrets."""
    if response.streaming or not TEXTUAL.match(response.get("Content-Type", "")):
        return False
    return not carries_secret(request, response)


GZIP_TAG_SUFFIX = "-gzip"
# The request headers whose entity tags name a representation sent before.
TAGGED_HEADERS = ("HTTP_IF_MATCH", "HTTP_IF_NONE_MATCH")
_SUFFIXED_TAG = re.compile(r'-gzip"')
# Set on a request whose tags carried the suffix (its 304 answers with it).
SUFFIX_SENT = "gzip_tags_sent"


def tags_unsuffixed(request: HttpRequest) -> None:
    """Take the compressed representation's suffix off the request's tags."""
    sent = False
    for header in TAGGED_HEADERS:
        value = request.META.get(header)
        if value and GZIP_TAG_SUFFIX in value:
            request.META[header] = _SUFFIXED_TAG.sub('"', value)
            sent = True
    setattr(request, SUFFIX_SENT, sent)


def tag_suffixed(tag: str) -> str:
    """A strong tag for the compressed representation (a weak tag stays as it is)."""
    if tag.startswith("W/") or not tag.endswith('"'):
        return tag
    return tag[:-1] + GZIP_TAG_SUFFIX + '"'


class SecretSafeGZipMiddleware(GZipMiddleware):
    """Django's ``GZipMiddleware`` for every answer that carries no secret,
    with strong tags for what it compresses."""

    def process_request(self, request: HttpRequest) -> None:
        tags_unsuffixed(request)

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.status_code == 304:
            tag = response.get("ETag")
            if tag and getattr(request, SUFFIX_SENT, False):
                response["ETag"] = tag_suffixed(tag)
            return response
        if not compressible(request, response):
            return response
        tag = response.get("ETag")
        compressed: HttpResponseBase = super().process_response(request, response)
        if tag and compressed.get("Content-Encoding") == "gzip":
            compressed["ETag"] = tag_suffixed(tag)
        return compressed

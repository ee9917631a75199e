"""Log filters: keep match tokens (and password-reset links) out of every log line.

Vocabulary: a *match token* is a table's private entry credential; it travels
in the path of the table's pages (``/m/<token>/``, under a language prefix
too) and in the ``X-Match-Token`` header of API calls. Anyone reading the
server's logs could record games with it, so every handler (Django's, and
gunicorn's access and error logs, config/gunicorn.py) runs ``MatchTokenMask``,
which rewrites a record's message (its text, arguments and traceback) to show
only a token's last four characters: ``/m/…abcd/``.

No Django import: gunicorn's master process loads this before Django.
"""

from __future__ import annotations

import logging
import re

# A token is 1 to 40 URL-safe characters; the path form takes whatever sits
# between /m/ and the next separator, so a malformed one is masked as well.
# The path may reach a log line raw (gunicorn's request line) or decoded
# (Django's "Not Found: %s"), and the router decodes it before matching, so
# /m%2F<token>/, /%6D/<token>/ and /m/%20<token>/ open the match page too:
# the slash and the m are taken in any percent-encoding (once or more), and
# the blanks before the token (a space, a tab, a line break, raw or encoded,
# another slash) are masked with it.
_ENCODED = r"%(?:25)*"
_SLASH = rf"(?:/|{_ENCODED}2F)"
_PATH_TOKEN = re.compile(
    rf"({_SLASH}(?:m|{_ENCODED}[46]D){_SLASH})"
    rf"((?:[\s+/]|{_ENCODED}(?:0[9A-D]|20|2F))*)"
    rf"((?:(?!{_ENCODED}2F)[^/?#\s\"'<>])+)",
    re.IGNORECASE,
)
_HEADER_TOKEN = re.compile(
    r"((?:HTTP_)?X[-_]MATCH[-_]TOKEN['\"]?\s*[:=]\s*['\"]?)([A-Za-z0-9_%-]+)", re.IGNORECASE
)
# A password-reset link (/accounts/reset/<uidb64>/<token>/, under a language
# prefix or not) is a secret too: its token is masked the same way.
_RESET_TOKEN = re.compile(r"(/accounts/reset/[^/?#\s\"'<>]+/)((?!set-password/)[^/?#\s\"'<>]+)")
_VISIBLE = 4


def _masked(token: str) -> str:
    return "…" + token[-_VISIBLE:] if len(token) > _VISIBLE else "…"


def match_tokens_masked(text: str) -> str:
    """``text`` with every match token it names cut down to its last characters."""
    text = _PATH_TOKEN.sub(lambda m: m.group(1) + _masked(m.group(3)), text)
    text = _RESET_TOKEN.sub(lambda m: m.group(1) + _masked(m.group(2)), text)
    return _HEADER_TOKEN.sub(lambda m: m.group(1) + _masked(m.group(2)), text)


class MatchTokenMask(logging.Filter):
    """Rewrites each record so that no handler writes a whole match token."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a broken format string: keep the raw parts
            message = f"{record.msg} {record.args!r}"
        # The message is formatted once here so that arguments (a path in
        # Django's "Bad Request: %s", gunicorn's access-log atoms) are masked too.
        record.msg = match_tokens_masked(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = match_tokens_masked(record.exc_text)
        if record.stack_info:
            record.stack_info = match_tokens_masked(record.stack_info)
        return True

"""The two kinds of error Rackscore knows.

A *user error* is bad input or a request that conflicts with the current
state: it carries a message for a person (a translatable template plus
parameters), the input field it concerns, and an HTTP-ish status. Nothing is
stored when one is raised. Anything else that escapes is a *fatal* error: a bug.

This module is plain Python so that the rules engine can raise user errors
without importing Django. Templates are marked with ``_`` so that
``makemessages`` finds them; they are translated at the edge (views, the API
exception handler) with :meth:`UserError.render`. A message that *counts*
("%(count)s were given") carries a ``plural`` template beside it, marked
with ``ngettext_lazy``, and is translated with the edge's ``ngettext``
(``plural_translation_use``, given when the apps load): every language
chooses its own form for the number.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _(message: str) -> str:
    """Mark a message for translation; it is translated where it is shown."""
    return message


def ngettext_lazy(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message that counts, its singular and plural templates, for
    translation with ``ngettext`` where it is shown."""
    return singular, plural


def _untranslated(message: str) -> str:
    return message


# How the edge translates a message that counts (``ngettext(singular, plural, n)``).
_plural_translations: list[Callable[[str, str, int], str]] = []


def plural_translation_use(translate: Callable[[str, str, int], str]) -> None:
    """The edge's ``ngettext``: messages that count are translated with it."""
    _plural_translations[:] = [translate]


NON_FIELD = "non_field_errors"


class UserError(Exception):
    """Bad input or a refused request: shown to the user, nothing stored."""

    status: int = 400
    default_code: str = "invalid"

    def __init__(
        self,
        template: str,
        /,
        *,
        field: str = NON_FIELD,
        code: str | None = None,
        plural: str | None = None,
        plural_of: str = "count",
        **params: Any,
    ) -> None:
        self.template = template
        # A message that counts: its plural template and the parameter it counts.
        self.plural = plural
        self.plural_of = plural_of
        self.params = params
        self.field = field
        self.code = code or self.default_code
        super().__init__(self.render())

    def render(self, translate: Callable[[str], str] = _untranslated) -> str:
        if self.plural is not None:
            number = int(self.params[self.plural_of])
            if translate is not _untranslated and _plural_translations:
                text = _plural_translations[0](self.template, self.plural, number)
            else:
                text = self.template if number == 1 else self.plural
            return text % self.params
        text = translate(self.template)
        return text % self.params if self.params else text


class ConflictError(UserError):
    """The request is valid but the current state forbids it (HTTP 409)."""

    status = 409
    default_code = "conflict"


class NotFoundError(UserError):
    """What the request names is not there (HTTP 404): answered as any 404 is."""

    status = 404
    default_code = "not_found"


class PreconditionFailedError(UserError):
    """A stale ``If-Match``: someone changed the object meanwhile (HTTP 412)."""

    status = 412
    default_code = "stale"


class PreconditionRequiredError(UserError):
    """A change that must name the version it replaces did not (HTTP 428)."""

    status = 428
    default_code = "precondition_required"


class RuleError(UserError):
    """Input the rulebook refuses: nothing is scored or stored."""

"""The two kinds of error Rackscore knows.

A *user error* is bad input or a request that conflicts with the current
state: it carries a message for a person (a translatable template plus
parameters), the input field it concerns, and an HTTP-ish status. Nothing is
stored when one is raised. Anything else that escapes is a *fatal* error: a bug.

This module is plain Python so that the rules engine can raise user errors
without importing Django. Templates are marked with ``_`` so that
``makemessages`` finds them; they are translated at the edge (views, the API
exception handler) with :meth:`UserError.render`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _(message: str) -> str:
    """Mark a message for translation; it is translated where it is shown."""
    return message


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
        **params: Any,
    ) -> None:
        self.template = template
        self.params = params
        self.field = field
        self.code = code or self.default_code
        super().__init__(self.render())

    def render(self, translate: Callable[[str], str] = lambda s: s) -> str:
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

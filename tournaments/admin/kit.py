"""The admin's kit for models that only services write.

Vocabulary: a *service admin* is a model's admin whose add, change and delete
call that model's services (``write``, ``remove``); its form never saves the
model itself. While the form is checked, the service is run and its writes
undone (a *trial*), so that every refusal (the rules engine's, a conflict)
shows on the form at its field instead of failing on save. A *read-only*
admin or inline shows rows that no service writes one by one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Generic, TypeVar

from django import forms
from django.contrib import admin, messages
from django.db import models, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext

from scoring.errors import UserError

M = TypeVar("M", bound=models.Model)
Write = Callable[[Any, dict[str, Any]], models.Model]


class _Undone(Exception):
    """Raised to undo a trial's writes once the service has accepted the input."""


class ServiceForm(forms.ModelForm):
    """A model form whose input the model's service judges; the form saves nothing."""

    # Bound per request by ``ServiceAdmin.get_form``: the service admin's write.
    write: Write

    def changes(self) -> dict[str, Any]:
        """The input to hand to the service: every field when adding, else those changed."""
        names = self.changed_data if self.instance.pk else list(self.fields)
        return {name: self.cleaned_data[name] for name in names if name in self.cleaned_data}

    def _post_clean(self) -> None:
        # Replaces the model form's own step (copy onto the instance, full_clean):
        # the service holds every check.
        if self.errors:
            return
        try:
            with transaction.atomic():
                self.write(self.instance if self.instance.pk else None, self.changes())
                raise _Undone
        except _Undone:
            pass
        except UserError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, error.render(gettext))


class ServiceAdmin(admin.ModelAdmin[M], Generic[M]):
    """An admin whose writes are ``write`` (add: ``obj`` is None) and ``remove``."""

    form = ServiceForm

    def write(self, request: HttpRequest, obj: M | None, data: dict[str, Any]) -> M:
        raise NotImplementedError

    def remove(self, request: HttpRequest, obj: M) -> None:
        raise NotImplementedError

    def get_form(
        self, request: HttpRequest, obj: M | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kwargs)
        return type(form.__name__, (form,), {"write": staticmethod(partial(self.write, request))})

    def save_model(self, request: HttpRequest, obj: M, form: Any, change: bool) -> None:
        saved = self.write(request, obj if change else None, form.changes())
        obj.pk = saved.pk
        obj.refresh_from_db()
        obj._state.adding = False

    def delete_model(self, request: HttpRequest, obj: M) -> None:
        self.remove(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        with transaction.atomic():
            for obj in queryset:
                self.remove(request, obj)

    def _refused(self, request: HttpRequest, error: UserError) -> HttpResponse:
        # A delete refused after the page showed it allowed (someone entered the
        # player meanwhile): nothing is deleted; say why.
        self.message_user(request, error.render(gettext), messages.ERROR)
        opts = self.opts
        return HttpResponseRedirect(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"))

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:
            return super().delete_view(request, object_id, extra_context)
        except UserError as error:
            return self._refused(request, error)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:  # the "delete selected" action
            return super().changelist_view(request, extra_context)
        except UserError as error:
            return self._refused(request, error)


class ReadOnlyAdmin(admin.ModelAdmin[M], Generic[M]):
    """Shown, never written: no service writes these rows one by one."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

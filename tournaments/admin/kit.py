"""The admin's kit for models that only services write.

Vocabulary: a *service admin* is a model's admin whose add, change and delete
call that model's services (``write``, ``remove``), each once; its form never
saves the model itself. The write is made while the form is checked (its
``clean``), so that every refusal (the rules engine's, a conflict) shows on
the form at its field, and the object the service stored becomes the form's
instance, which the admin then shows and logs. When the page is shown again
with errors, the admin's transaction is rolled back: nothing a form wrote
stays unless the whole page was accepted. A *read-only* admin or inline shows
rows that no service writes one by one.
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


class ServiceForm(forms.ModelForm[Any]):
    """A model form whose input the model's service judges and writes; the form
    saves nothing itself."""

    # Bound per request by ``ServiceAdmin.get_form``: the service admin's write.
    write: Write

    def changes(self) -> dict[str, Any]:
        """The input to hand to the service: every field when adding, else those changed."""
        names = self.changed_data if self.instance.pk else list(self.fields)
        return {name: self.cleaned_data[name] for name in names if name in self.cleaned_data}

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or self.cleaned_data
        if self.errors:
            return cleaned
        try:
            self.instance = self.write(self.instance if self.instance.pk else None, self.changes())
        except UserError as error:
            field = error.field if error.field in self.fields else None
            self.add_error(field, error.render(gettext))
        return cleaned

    def validate_unique(self) -> None:
        """The service has checked the input, uniqueness among it, and stored it."""


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
        # The form's check wrote it through the service; shown as stored.
        obj.refresh_from_db()

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        # The service wrote the object's relations: the form's are not saved again.
        # The inlines are read-only: their formsets save nothing but are told so.
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: M | None = None,
    ) -> HttpResponse:
        response = super().render_change_form(request, context, add, change, form_url, obj)
        if request.method == "POST":
            # Shown again with errors: what the form's service wrote is not kept (the
            # page is rendered after the admin's transaction, once it is rolled back).
            transaction.set_rollback(True)
        return response

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


class ReadOnlyInline(admin.TabularInline[Any, Any]):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

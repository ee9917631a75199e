"""Accounts: signing up, changing one's password, resetting a forgotten one by email.

Vocabulary: *sign-up* (``/accounts/signup/``) makes an account from a username
(unique whatever its case: ``Anna`` is taken once ``anna`` is), an optional
email address (needed only to reset a forgotten password) and a password that
passes the site's password validators; the new user is logged in at once (no
email is checked first) and lands on the home page, where tournaments and
clubs are created. An installation turns sign-up off with
``RACKSCORE_SIGNUP=0``: the page answers 404 and nothing links it. Every
account may do what an organiser does; staff are needed for nothing
(``docs/rights.md``).

*Password change* and *reset* are Django's own views with the site's
templates (``templates/registration/``); a reset mail leaves by
``DJANGO_EMAIL_URL`` (``config.email``) and says nothing to a visitor about
whether an account has the address typed.

*Account posts* (a sign-up or a reset asked for) are counted per client
address (``config.login_guard.client_address``) in the default cache, at
most ``RACKSCORE_ACCOUNT_POSTS_PER_HOUR`` an hour: the next answers 429 with
``Retry-After``, so that neither accounts nor reset mails can be made in
bulk. Wrong passwords at login are counted by django-axes (``config.login_guard``).
"""

from __future__ import annotations

import time
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.core.cache import cache
from django.core.validators import MaxLengthValidator
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters

from config.login_guard import client_address

WINDOW_SECONDS = 60 * 60
EMAIL_MAX = 254
# Far beyond any password typed or kept in a manager; a longer one is refused
# at its field rather than hashed.
PASSWORD_MAX = 1024
# Django logs in through the first backend named; axes' own only guards.
LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


def accounts_context(request: HttpRequest) -> dict[str, Any]:
    """What every template needs of accounts: whether sign-up is open."""
    return {"signup_open": bool(settings.RACKSCORE_SIGNUP)}


def account_posts_refused(request: HttpRequest, *, what: str) -> HttpResponse | None:
    """Count this account post of the client's address; a 429 page once the
    address has made ``RACKSCORE_ACCOUNT_POSTS_PER_HOUR`` this hour, else None."""
    limit: int = settings.RACKSCORE_ACCOUNT_POSTS_PER_HOUR
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    key = f"account-posts:{what}:{client_address(request) or '-'}:{window}"
    cache.add(key, 0, timeout=WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between the two calls: this is its first post
        cache.set(key, 1, timeout=WINDOW_SECONDS)
        count = 1
    if count <= limit:
        return None
    seconds = max(1, int((window + 1) * WINDOW_SECONDS - now))
    response = render(
        request,
        "registration/account_posts_refused.html",
        {"minutes": (seconds + 59) // 60, "limit": limit},
        status=429,
    )
    response["Retry-After"] = str(seconds)
    return response


class SignupForm(UserCreationForm):  # type: ignore[type-arg]
    """A username (unique whatever its case), an optional email and a password twice."""

    email = forms.EmailField(
        label=gettext_lazy("Email (optional)"),
        max_length=EMAIL_MAX,
        required=False,
        help_text=gettext_lazy("Only needed to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined,misc]
        model = get_user_model()
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("password1", "password2"):
            field = self.fields[name]
            field.validators.append(MaxLengthValidator(PASSWORD_MAX))
            field.widget.attrs["maxlength"] = str(PASSWORD_MAX)


def _next_asked(request: HttpRequest) -> str:
    """The page the visitor came for, if it is on this site; else ""."""
    asked = str(request.POST.get("next") or request.GET.get("next") or "")
    if asked and url_has_allowed_host_and_scheme(
        asked, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return asked
    return ""


def _landing(request: HttpRequest) -> str:
    """Where a new user goes: the page they came for, else home (where
    tournaments and clubs are created)."""
    return _next_asked(request) or reverse("web:home")


def _signed_up(form: SignupForm) -> Any:
    """The new user, or None with the form's errors. The form is checked in the
    transaction that saves it: on SQLite (IMMEDIATE) nobody signs up between
    the check that the name is free, whatever its case, and the insert."""
    try:
        with transaction.atomic():
            if not form.is_valid():
                return None
            return form.save()
    except IntegrityError:
        # The same name signed up a moment ago, past the form's check.
        form.add_error(
            "username", form.instance.unique_error_message(get_user_model(), ["username"])
        )
        return None


@sensitive_post_parameters("password1", "password2")
@csrf_protect
@never_cache
def signup(request: HttpRequest) -> HttpResponse:
    """The sign-up form; a valid POST makes the account and logs it in."""
    if not settings.RACKSCORE_SIGNUP:
        raise Http404
    if request.user.is_authenticated:
        return redirect("web:home")
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        refused = account_posts_refused(request, what="signup")
        if refused is not None:
            return refused
        user = _signed_up(form)
        if user is not None:
            auth_login(request, user, backend=LOGIN_BACKEND)
            messages.success(
                request,
                gettext(
                    "Welcome, %(name)s: your account is ready. "
                    "You can now create tournaments and clubs."
                )
                % {"name": user.get_username()},
            )
            return HttpResponseRedirect(_landing(request))
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": _next_asked(request)},
        status=400 if form.is_bound else 200,
    )


class PasswordChange(auth_views.PasswordChangeView):
    """Change one's password (the old one first); the session stays logged in."""

    success_url = reverse_lazy("web:password-change-done")


class PasswordReset(auth_views.PasswordResetView):
    """Ask for a reset link by email; counted as an account post."""

    success_url = reverse_lazy("web:password-reset-done")
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = account_posts_refused(request, what="reset")
        return refused or super().post(request, *args, **kwargs)


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    """The mailed link: a new password, twice."""

    success_url = reverse_lazy("web:password-reset-complete")

"""Web pages: thin views over selectors and services."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .selectors import tournaments_visible


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/home.html",
        {"tournaments": tournaments_visible(user=request.user)},
    )

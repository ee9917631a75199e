"""API test helpers: clients that authenticate as a real client would (a token
header, a match token header, or nothing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory


def client_as(user: AbstractBaseUser | None = None, *, match_token: str | None = None) -> APIClient:
    client = APIClient()
    headers: dict[str, Any] = {}
    if user is not None:
        key = Token.objects.get_or_create(user=user)[0].key
        headers["HTTP_AUTHORIZATION"] = f"Token {key}"
    if match_token is not None:
        headers["HTTP_X_MATCH_TOKEN"] = match_token
    client.credentials(**headers)
    return client


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def owner() -> AbstractBaseUser:
    return UserFactory(username="owner")


@pytest.fixture
def staff() -> AbstractBaseUser:
    return UserFactory(username="staff", is_staff=True)


@pytest.fixture
def other() -> AbstractBaseUser:
    return UserFactory(username="other")


@pytest.fixture
def as_user() -> Callable[..., APIClient]:
    return client_as

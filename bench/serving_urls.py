"""The project's routes plus the *bare POST*: the anchor of bench_recording.

The bare POST is the least a DRF write can cost on this stack: a minimal
APIView validates a two-field serializer and inserts one row into the bench's
own table (``bench_bare``, created by the bench, no model, no migration). It
is served by the same gunicorn as the real routes, so the two figures differ
only by what recording a game does on top."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.urls import path
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import urlpatterns as project_urls

BARE_TABLE = "bench_bare"


class BareIn(serializers.Serializer[Any]):
    match = serializers.IntegerField(min_value=1)
    number = serializers.IntegerField(min_value=1, max_value=99)


class BareView(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def post(self, request: Request) -> Response:
        given = BareIn(data=request.data)
        given.is_valid(raise_exception=True)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {BARE_TABLE} (match, number) VALUES (%s, %s)",
                [given.validated_data["match"], given.validated_data["number"]],
            )
        return Response(given.validated_data, status=status.HTTP_201_CREATED)


urlpatterns = [path("bench/bare/", BareView.as_view()), *project_urls]

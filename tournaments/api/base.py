"""The view bases the resources build on.

Vocabulary:

* an *input form*: the browsable API's form for a change shows the body the
  view takes (its ``input_serializer``), not the answer's shape;
* a *nested* view works under one tournament (``/tournaments/{tournament_id}/...``):
  it first fetches that *parent* among what the request may see (404
  otherwise) and checks the permission on it (401/403);
* a *service-backed* viewset is DRF's CRUD whose writes go through services:
  its serializer checks the body, a service writes (refusing with a
  ``UserError``, which the exception handler answers at its field), and the
  same serializer renders what was stored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, TypeVar

from django.db import models
from rest_framework import generics, serializers, status, viewsets
from rest_framework.exceptions import MethodNotAllowed, NotFound
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.defaults import json_parsers
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.api.permissions import TournamentPermission
from tournaments.caching import TournamentHead
from tournaments.models import Tournament
from tournaments.selectors.tournaments import tournament_head_visible, tournament_visible

M = TypeVar("M", bound=models.Model)

if TYPE_CHECKING:
    _GenericViewBase = generics.GenericAPIView[Any]
else:
    _GenericViewBase = object


class InputFormMixin(_GenericViewBase):
    """The browsable API's form for a change shows ``input_serializer``."""

    input_serializer: type[serializers.Serializer[Any]] | None = None

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        method = self.request.method
        if self.input_serializer is not None and method not in SAFE_METHODS:
            return self.input_serializer
        return super().get_serializer_class()


class TournamentNestedView(IdempotentWritesMixin, InputFormMixin, generics.GenericAPIView[Any]):
    """A view under ``/tournaments/{tournament_id}/``."""

    permission_classes = [TournamentPermission]
    parser_classes = json_parsers()
    filter_backends: list[Any] = []  # a tournament's own rows, in their natural order
    _tournament: Tournament | None = None

    def tournament(self) -> Tournament:
        if self._tournament is None:
            found = tournament_visible(user=self.request.user, pk=self.kwargs["tournament_id"])
            if found is None:
                raise NotFound
            self._tournament = found
            self.check_object_permissions(self.request, self._tournament)
        return self._tournament

    def tournament_head(self) -> TournamentHead:
        """The tournament's head (``caching.TournamentHead``, one small query),
        for a read that may answer 304 before the tournament itself is needed:
        a read needs no permission on the object (``TournamentPermission``)."""
        if self.request.method not in SAFE_METHODS:
            raise MethodNotAllowed(self.request.method or "")
        head = tournament_head_visible(user=self.request.user, pk=self.kwargs["tournament_id"])
        if head is None:
            raise NotFound
        return head

    def replay_check(self, request: Request, *args: Any, **kwargs: Any) -> None:
        self.tournament()  # a replay, too, needs the tournament's permission now


class ServiceModelViewSet(IdempotentWritesMixin, viewsets.ModelViewSet[M], Generic[M]):
    """CRUD whose writes are the services named by ``object_create``,
    ``object_update`` and ``object_delete``; no serializer saves anything."""

    def object_create(self, data: dict[str, Any]) -> M:
        raise NotImplementedError

    def object_update(self, instance: M, data: dict[str, Any]) -> M:
        raise NotImplementedError

    def object_delete(self, instance: M) -> None:
        raise NotImplementedError

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        given = self.get_serializer(data=request.data)
        given.is_valid(raise_exception=True)
        created = self.object_create(dict(given.validated_data))
        return Response(self.get_serializer(created).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        instance = self.get_object()
        given = self.get_serializer(
            instance, data=request.data, partial=kwargs.pop("partial", False)
        )
        given.is_valid(raise_exception=True)
        changed = self.object_update(instance, dict(given.validated_data))
        return Response(self.get_serializer(changed).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        self.object_delete(self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

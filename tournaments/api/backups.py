"""Backups: a tournament's export document and its restore as a new tournament.

Vocabulary: the *backup document* (``tournaments.backups.document``) is
answered as it is by ``GET /tournaments/{id}/export/`` (its organisers only)
and taken as the body of ``POST /tournaments/import/`` (any logged-in user,
who owns the restored tournament; ``?slug=`` gives it a new address). Its JSON
Schema is ``tournaments/backups/schema/rackscore-tournament-v1.schema.json``;
the OpenAPI document describes only its outline.

The import reads its body itself (``BackupParser``), up to the same
``file_max()`` as the desk's upload (``RACKSCORE_BACKUP_MAX_MB``) rather than
Django's limit for request bodies, which a large event's backup passes: only
this endpoint takes so much. A document with more games than one request
a restore takes (``RACKSCORE_BACKUP_GAMES_MAX``) is refused (413). A document
over ``RACKSCORE_BACKUP_REQUEST_MB`` or ``RACKSCORE_BACKUP_REQUEST_GAMES`` games
is read and recognised in the request, then restored by the task worker: the
answer is 202 with its *restore job* (``GET /tournaments/imports/{id}/``, its
starter's only), queued, running, then done or refused. The restored players
are the caller's, made anew.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import generics, serializers, status
from rest_framework.parsers import BaseParser
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.errors import FieldErrorsSerializer, error_responses
from tournaments.access import tournament_organiser, user_or_none
from tournaments.api.base import TournamentNestedView
from tournaments.api.idempotency import IdempotentWritesMixin
from tournaments.api.tournaments import TournamentSerializer
from tournaments.backups.checks import (
    FIELD,
    document_read,
    document_taken,
    file_max,
    request_restorable,
    too_large,
)
from tournaments.backups.document import tournament_document
from tournaments.backups.restore import tournament_import
from tournaments.models import RestoreJob, Tournament
from tournaments.selectors.background import restore_job_of
from tournaments.services.restore_jobs import refusal_text
from tournaments.tasks import restore_enqueue

_ROWS = ("clubs", "players", "entries", "rounds", "matches", "seats", "games", "adjustments")

# The outline for OpenAPI (3.0 knows no ``const`` nor type lists); the JSON
# Schema in the repository is the full contract.
DOCUMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "A Rackscore tournament backup (format `rackscore-tournament`, version 1): settings, "
        "clubs, players, entries, rounds, matches, seats, games with racks, adjustments and the "
        "audit trail. Full JSON Schema: "
        "tournaments/backups/schema/rackscore-tournament-v1.schema.json."
    ),
    "properties": {
        "format": {"type": "string", "enum": ["rackscore-tournament"]},
        "version": {"type": "integer", "enum": [1]},
        "exported_at": {"type": "string", "format": "date-time"},
        "checksum": {"type": "string", "description": "SHA-256 of the document without it."},
        "tournament": {"type": "object", "additionalProperties": True},
        **{
            name: {"type": "array", "items": {"type": "object", "additionalProperties": True}}
            for name in (*_ROWS, "audit")
        },
    },
    "required": ["format", "version", "exported_at", "tournament", *_ROWS, "audit"],
}


class BackupParser(BaseParser):
    """A JSON body of up to ``file_max()`` bytes, read as a backup file is.

    Not a subclass of DRF's ``JSONParser``: DRF hands that one
    ``request.body``, which refuses anything over Django's
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``; any other parser gets the stream.
    """

    media_type = "application/json"

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        request = (parser_context or {}).get("request")
        meta = request.META if request is not None else {}
        try:
            declared = int(meta.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > file_max():
            raise too_large()
        data = stream.read(file_max() + 1)
        document = document_taken(data)
        if document is None:
            # Too large to read within the request: known by its digest (what the
            # Idempotency-Key's fingerprint sees of it).
            digest = hashlib.sha256(data).hexdigest()
            return BackupDocument({"sha256": digest}, data=data, read=False)
        return BackupDocument(document, data=data, read=True)


class BackupDocument(dict[str, Any]):
    """A document that remembers its body: its size decides where it is
    restored, and a large one is handed to the worker as it came. ``read``: the
    document itself (else only its digest: the body was only glanced at)."""

    def __init__(self, document: dict[str, Any], *, data: bytes, read: bool) -> None:
        super().__init__(document)
        self.data = data
        self.read = read


class RestoreJobErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    detail = serializers.CharField()
    field = serializers.CharField()
    status = serializers.IntegerField(help_text=_("The status a restore in the request answers."))


class RestoreJobSerializer(serializers.Serializer[RestoreJob]):
    """A large restore's progress: queued, running, then done or refused."""

    id = serializers.IntegerField()
    state = serializers.ChoiceField(choices=RestoreJob.State.choices)
    created = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    tournament = serializers.SerializerMethodField(
        help_text=_("The restored tournament's id, once done.")
    )
    tournament_url = serializers.SerializerMethodField(
        help_text=_("The restored tournament in the API, once done.")
    )
    error = serializers.SerializerMethodField(help_text=_("The refusal, once refused."))

    def get_tournament(self, job: RestoreJob) -> int | None:
        return job.tournament_id

    def get_tournament_url(self, job: RestoreJob) -> str | None:
        if job.tournament_id is None:
            return None
        path = reverse("api-tournament-detail", args=[job.tournament_id])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    @extend_schema_field(RestoreJobErrorSerializer(allow_null=True))
    def get_error(self, job: RestoreJob) -> dict[str, Any] | None:
        if job.state != RestoreJob.State.REFUSED:
            return None
        refusal = job.refusal
        return {
            "code": refusal.get("code", "invalid"),
            "detail": refusal_text(refusal),
            "field": refusal.get("field", FIELD),
            "status": refusal.get("status", 400),
        }


class OrganisersOnly(BasePermission):
    """Even reading a backup needs an organiser: it holds the match links."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return user_or_none(request.user) is not None

    def has_object_permission(self, request: Request, view: Any, obj: Tournament) -> bool:
        return tournament_organiser(user=request.user, tournament=obj)


class ImportQuerySerializer(serializers.Serializer[Any]):
    slug = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text=_("The restored tournament's slug (default: the backup's own)."),
    )


class TournamentExportView(TournamentNestedView):
    permission_classes = [OrganisersOnly]
    serializer_class = None

    @extend_schema(
        summary="A tournament's backup",
        description=_(
            "The whole tournament as one versioned JSON document (organisers only), to be "
            "restored with `POST /api/v1/tournaments/import/` or `manage.py import_tournament`."
        ),
        responses={
            (200, "application/json"): OpenApiResponse(response=DOCUMENT_SCHEMA),
            **error_responses(401, 403, 404),
        },
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(tournament_document(tournament=self.tournament()))


class TournamentImportView(IdempotentWritesMixin, generics.GenericAPIView[Tournament]):
    permission_classes = [IsAuthenticated]
    parser_classes = [BackupParser]
    # BackupParser judges the length itself (up to file_max(), its own 413 body).
    body_max = None
    serializer_class = None
    # DRF's OPTIONS describes a POST by its serializer, and the body is a document, not one.
    metadata_class = None

    @extend_schema(
        summary="Restore a tournament from a backup",
        description=_(
            "Restores a backup document as a new tournament owned by the caller, with its "
            "players made anew as the caller's (the file's users are kept as text only; its "
            "co-organisers are not added; every match gets a new link). The file is "
            "checked against its schema and every game is scored again; a refusal names its "
            "reason and stores nothing. A slug in use is refused (409) unless `slug` gives "
            "another; a body over the largest backup taken, or with more games than one "
            "request restores, is refused (413)."
        ),
        parameters=[
            OpenApiParameter("slug", str, description=str(_("The restored tournament's slug.")))
        ],
        request={"application/json": DOCUMENT_SCHEMA},
        responses={
            201: TournamentSerializer,
            202: OpenApiResponse(
                response=RestoreJobSerializer,
                description=(
                    "A large backup (over RACKSCORE_BACKUP_REQUEST_MB or "
                    "RACKSCORE_BACKUP_REQUEST_GAMES games), read and recognised, to be restored "
                    "in the background: its progress, also at `Location`."
                ),
            ),
            **error_responses(400, 401, 409),
            413: OpenApiResponse(
                response=FieldErrorsSerializer,
                description=(
                    "The body is over the largest backup taken (RACKSCORE_BACKUP_MAX_MB), or "
                    "holds more games than one request restores (RACKSCORE_BACKUP_GAMES_MAX)."
                ),
            ),
        },
    )
    def post(self, request: Request) -> Response:
        query = ImportQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        # No body at all is no stream: DRF parses nothing and answers ``{}``.
        document = request.data if request.stream is not None else document_read(b"")
        if isinstance(document, BackupDocument) and (
            not document.read or not request_restorable(size=len(document.data), document=document)
        ):
            return self.background(request, document, slug=query.validated_data.get("slug") or "")
        tournament = tournament_import(
            document=document,
            owner=request.user,
            slug=query.validated_data.get("slug") or None,
            user=request.user,
            source="api",
        )
        return Response(
            TournamentSerializer(tournament, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED,
        )

    def background(self, request: Request, document: BackupDocument, *, slug: str) -> Response:
        """A large document, recognised here and restored by the worker: 202 and its progress."""
        job = restore_enqueue(
            user=request.user,
            data=document.data,
            document=document if document.read else None,
            slug=slug,
            source="api",
        )
        job = restore_job_of(user=request.user, job_id=job.pk) or job
        url = reverse("api-tournament-import-job", args=[job.pk])
        return Response(
            RestoreJobSerializer(job, context=self.get_serializer_context()).data,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": request.build_absolute_uri(url), "Retry-After": "5"},
        )


class RestoreJobView(generics.GenericAPIView[RestoreJob]):
    permission_classes = [IsAuthenticated]
    serializer_class = RestoreJobSerializer

    @extend_schema(
        summary="A large restore's progress",
        description=_(
            "A backup too large to restore within its request (over "
            "RACKSCORE_BACKUP_REQUEST_MB or RACKSCORE_BACKUP_REQUEST_GAMES games) is answered "
            "202 with this resource (also its `Location`): `queued`, `running`, then `done` with "
            "the new tournament, or `refused` with the reason. Only the user who sent the "
            "backup sees it; anyone else gets 404."
        ),
        responses={200: RestoreJobSerializer, **error_responses(401, 404)},
    )
    def get(self, request: Request, job_id: int) -> Response:
        job = restore_job_of(user=request.user, job_id=job_id)
        if job is None:
            raise Http404
        headers = {} if job.finished else {"Retry-After": "5"}
        return Response(
            RestoreJobSerializer(job, context=self.get_serializer_context()).data, headers=headers
        )

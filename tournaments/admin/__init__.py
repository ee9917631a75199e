"""The Django admin for every model, writing only through the services.

Clubs, players, tournaments, entries and adjustments are written by their
services (``kit.ServiceAdmin``); rounds, matches and games are in ``games``.
A tournament's entries are shown read-only on its page.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.admin import games as games  # registers rounds, matches and games
from tournaments.admin.kit import ReadOnlyInline, ServiceAdmin
from tournaments.models import Adjustment, Club, Entry, Player, Tournament
from tournaments.services import adjustments, entries, players, tournaments


@admin.register(Club)
class ClubAdmin(ServiceAdmin[Club]):
    list_display = ["name", "city", "created_by"]
    search_fields = ["name", "city"]
    list_select_related = ["created_by"]
    # The creator is who may change it (with staff): set when made, shown here.
    fields = ["name", "city", "created_by"]
    readonly_fields = ["created_by"]

    def write(self, request: HttpRequest, obj: Club | None, data: dict[str, Any]) -> Club:
        if obj is None:
            return players.club_create(created_by=request.user, **data)
        return players.club_update(club=obj, user=request.user, **data)

    def remove(self, request: HttpRequest, obj: Club) -> None:
        players.club_delete(club=obj, user=request.user)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # A club goes with its own trail and invitations, read-only one by one here.
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected


@admin.register(Player)
class PlayerAdmin(ServiceAdmin[Player]):
    list_display = ["name", "club", "created_by"]
    list_filter = ["club"]
    search_fields = ["name"]
    list_select_related = ["club", "created_by"]
    readonly_fields = ["created_by"]

    def write(self, request: HttpRequest, obj: Player | None, data: dict[str, Any]) -> Player:
        if obj is None:
            return players.player_create(created_by=request.user, **data)
        return players.player_update(player=obj, user=request.user, **data)

    def remove(self, request: HttpRequest, obj: Player) -> None:
        players.player_delete(player=obj, user=request.user)


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = readonly_fields = ("player", "status")


@admin.register(Tournament)
class TournamentAdmin(ServiceAdmin[Tournament]):
    list_display = ["name", "date", "club", "status", "seating", "ranking", "public"]
    list_filter = ["status", "seating", "ranking", "public", "club"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    list_select_related = ["club"]
    inlines = [EntryInline]
    # Set on the tournament's settings page (/t/<slug>/edit/), by username.
    readonly_fields = ["co_organisers"]

    def write(
        self, request: HttpRequest, obj: Tournament | None, data: dict[str, Any]
    ) -> Tournament:
        if obj is None:
            return tournaments.tournament_create(user=request.user, **data)
        return tournaments.tournament_update(tournament=obj, user=request.user, **data)

    def remove(self, request: HttpRequest, obj: Tournament) -> None:
        tournaments.tournament_delete(tournament=obj, user=request.user)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        # A tournament goes with everything in it, though those rows are
        # read-only one by one here.
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected


@admin.register(Entry)
class EntryAdmin(ServiceAdmin[Entry]):
    list_display = ["tournament", "player", "status"]
    list_filter = ["tournament", "status"]
    raw_id_fields = ["player"]
    STATUS_SET = {
        Entry.Status.ACTIVE: entries.entry_activate,
        Entry.Status.ABSENT: entries.entry_check_out,
        Entry.Status.WITHDRAWN: entries.entry_withdraw,
    }

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return ["tournament", "player"] if obj is not None else []

    def write(self, request: HttpRequest, obj: Entry | None, data: dict[str, Any]) -> Entry:
        if obj is None:
            added = entries.entries_add(
                tournament=data["tournament"],
                player_ids=[data["player"].pk],
                status=data["status"],
                user=request.user,
            )
            return added[0]
        if "status" not in data:
            return obj
        status_set = self.STATUS_SET[data["status"]]
        return status_set(tournament=obj.tournament, player_id=obj.player_id, user=request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # withdraw a player instead: their results stay


@admin.register(Adjustment)
class AdjustmentAdmin(ServiceAdmin[Adjustment]):
    list_display = ["tournament", "player", "kind", "points", "reason", "created"]
    list_filter = ["tournament", "kind"]
    raw_id_fields = ["player", "round"]
    fields = ["tournament", "player", "round", "kind", "points", "reason"]

    def write(
        self, request: HttpRequest, obj: Adjustment | None, data: dict[str, Any]
    ) -> Adjustment:
        return adjustments.adjustment_add(
            tournament=data["tournament"],
            player_id=data["player"].pk,
            round=data.get("round"),
            kind=data["kind"],
            points=data["points"],
            reason=data["reason"],
            user=request.user,
        )

    def remove(self, request: HttpRequest, obj: Adjustment) -> None:
        adjustments.adjustment_delete(adjustment=obj, user=request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # delete it and add the right one: the history stays honest

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A bye's score goes with its round's seating.
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or obj.kind != Adjustment.Kind.BYE)

"""Every route of the site, as the role matrix asks them: the pages and files of
Django's URL conf and the operations of the OpenAPI document.

Vocabulary:

* a *route* is one address pattern and one HTTP method: a page or file named
  by its URL name (``web:tournament-edit``, ``print:standings``, ``healthz``),
  or an API operation named by its ``operationId`` (``tournaments_destroy``);
  the language-prefixed copies of the pages are one route (English, no prefix);
  the admin's many generated addresses are one family, ``admin:*``;
* a *key* names a route and method in the expectation table:
  ``"<name> <METHOD>"``, or ``"<name> <METHOD> [<variant>]"`` for the same
  route asked again with another body or another object (a *variant*:
  ``[public]`` changes the visibility, ``[other table]`` names the other
  table of the round);
* a *request* is what a role sends for a key in a scope: method, address,
  body and headers (``request_for``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, reverse
from drf_spectacular.generators import SchemaGenerator

from tests.role_world import Scope, World
from tournaments.web.settings_forms import TournamentForm

API_PREFIX = "api/v1/"
WEB_METHODS = ("GET", "POST")
ADMIN_FAMILY = "admin:*"


@dataclass(frozen=True)
class UrlRoute:
    """A pattern of the URL conf: its qualified name, its path template and the
    view's fixed arguments."""

    name: str
    path: str  # "t/<slug:slug>/edit/": the English copy, no leading slash
    defaults: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)
    callback: Any = field(default=None, hash=False, compare=False)


def _walk(patterns: list[URLPattern | URLResolver], prefix: str, namespace: str) -> list[UrlRoute]:
    routes: list[UrlRoute] = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            routes += _walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        else:
            name = f"{namespace}{entry.name}" if entry.name else prefix + str(entry.pattern)
            routes.append(
                UrlRoute(
                    name=name,
                    path=prefix + str(entry.pattern),
                    defaults=dict(entry.default_args),
                    callback=entry.callback,
                )
            )
    return routes


@cache
def url_routes() -> tuple[UrlRoute, ...]:
    """Every pattern of the URL conf, the language-prefixed pages once (English)."""
    return tuple(_walk(get_resolver().url_patterns, "", ""))


@cache
def openapi_operations() -> dict[str, tuple[str, str]]:
    """operationId -> (METHOD, path template) of the OpenAPI document."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {
        operation["operationId"]: (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
    }


def openapi_path(route: UrlRoute) -> str:
    """A URL conf pattern written as the OpenAPI document writes its path."""
    path = re.sub(r"<(?:[^>:]+:)?([^>]+)>", r"{\1}", route.path)
    return "/" + path.replace("{pk}", "{id}")


def api_methods_answered(route: UrlRoute) -> set[str]:
    """The methods an API view answers (OPTIONS and HEAD left aside)."""
    actions = getattr(route.callback, "actions", None)
    if actions is not None:
        return {method.upper() for method in actions if method not in ("options", "head")}
    view_class = route.callback.cls
    return {
        method.upper()
        for method in view_class.http_method_names
        if method not in ("options", "head") and hasattr(view_class, method)
    }


def route_keys() -> dict[str, str]:
    """Every route's key (variants aside) -> where it comes from, for messages."""
    keys: dict[str, str] = {}
    documented = {path for _method, path in openapi_operations().values()}
    for operation_id, (method, path) in openapi_operations().items():
        keys[f"{operation_id} {method}"] = f"OpenAPI {method} {path}"
    for route in url_routes():
        if route.name.startswith("admin:") or route.path.startswith("admin/"):
            keys[f"{ADMIN_FAMILY} GET"] = "the admin site"
            keys[f"{ADMIN_FAMILY} POST"] = "the admin site"
            continue
        if route.path.startswith(API_PREFIX) and openapi_path(route) in documented:
            continue  # an API operation: named by the OpenAPI document
        for method in WEB_METHODS:
            keys[f"{route.name} {method}"] = f"URL conf /{route.path}"
    return keys


def key_parts(key: str) -> tuple[str, str, str]:
    """``"name METHOD [variant]"`` -> (name, METHOD, variant or "")."""
    match = re.fullmatch(r"(\S+) (\S+)(?: \[(.+)\])?", key)
    assert match is not None, f"a key is 'name METHOD [variant]': {key!r}"
    return match.group(1), match.group(2), match.group(3) or ""


# ----------------------------------------------------------------------------- requests


@dataclass
class Request:
    api: bool
    method: str
    path: str
    data: Any = None
    headers: dict[str, str] = field(default_factory=dict)


def _scope_object(scope: Scope, variant: str) -> Scope:
    """The scope, or (variant ``other table``) the same scope naming the round's other table."""
    if variant != "other table":
        return scope
    assert scope.other_match is not None
    other_game = scope.other_match.games.order_by("number").first()
    assert other_game is not None
    return Scope(
        tournament=scope.tournament,
        invitation_id=scope.invitation_id,
        co_organiser_name=scope.co_organiser_name,
        invited_name=scope.invited_name,
        round_number=scope.round_number,
        round_id=scope.round_id,
        match=scope.other_match,
        game=other_game,
        game_number=other_game.number,
        old_token=scope.old_token,
    )


def _api_path(template: str, operation_id: str, scope: Scope) -> str:
    tournament_id = scope.tournament.pk if scope.tournament else None
    match_id = scope.match.pk if scope.match else None
    game_id = scope.deleted_game_id if operation_id == "games_restore" else None
    game_id = game_id or (scope.game.pk if scope.game else None)
    by_resource = {
        "tournaments": tournament_id,
        "rounds": scope.round_id,
        "matches": match_id,
        "games": game_id,
        "players": scope.player_id,
        "clubs": scope.club_id,
        "invitations": scope.invitation_id,
        # A tournament's invitation: no club invitation has its id.
        "club-invitations": scope.invitation_id,
        "seasons": scope.season_id,
    }
    resource = template.split("/")[3]
    values = {
        "id": by_resource.get(resource),
        "tournament_id": tournament_id,
        "match_id": match_id,
        "game_id": game_id,
        "adjustment_id": scope.adjustment_id,
        "job_id": scope.job_id,
        "player_id": scope.player_id,
        "club_id": scope.club_id,
        # Withdrawing the invited user's invitation; removing the co-organiser.
        "username": (
            scope.invited_name if "invitation" in operation_id else scope.co_organiser_name
        ),
    }

    def fill(found: re.Match[str]) -> str:
        value = values[found.group(1)]
        assert value is not None, f"scope names no {found.group(1)} for {operation_id}"
        return str(value)

    return re.sub(r"\{(\w+)\}", fill, template)


def _game_valid(scope: Scope) -> dict[str, Any]:
    """A game the scope's table could record: its first seat empties the rack."""
    assert scope.match is not None
    seated = list(scope.match.seats.order_by("position").values_list("player_id", flat=True))
    racks = [{"player": p, "points": 0 if i == 0 else 4, "jokers": 0} for i, p in enumerate(seated)]
    return {"ending": "rummikub", "racks": racks}


API_BODIES: dict[str, Any] = {
    # A valid game, so that what answers is the finished tournament (409), not the body.
    "matches_games_create [finished]": _game_valid,
    # A change of visibility, and a change of the organiser list: the owner's alone.
    "tournaments_partial_update [public]": lambda scope: {"public": not scope.tournament.public},
    # Inviting one more user (the others named as they are).
    "tournaments_partial_update [organisers]": lambda scope: {
        "co_organisers": [scope.co_organiser_name, scope.invited_name, "stranger"]
    },
    "tournaments_partial_update [name]": lambda scope: {"name": "Renamed"},
}


def _web_kwargs(route: UrlRoute, world: World, role: str, scope_name: str, scope: Scope) -> Any:
    names = re.findall(r"<(?:[^>:]+:)?([^>]+)>", route.path)
    values: dict[str, Any] = {}
    for name in names:
        if name == "slug" and route.path.startswith("c/"):
            values[name] = scope.club_slug  # a club's address
        elif name == "slug":
            assert scope.tournament is not None, f"{route.name} needs a tournament scope"
            values[name] = scope.tournament.slug
        elif name == "number":
            values[name] = scope.game_number if "game" in route.name else scope.round_number
        elif name == "token" and route.name == "web:password-reset-confirm":
            values[name] = "c0-nosuchresettoken"  # a reset link that does not work
        elif name == "uidb64":
            values[name] = "MQ"  # user id 1, base64
        elif name == "token":
            values[name] = world.page_token(role, scope_name)
        elif name == "match_id":
            assert scope.match is not None
            values[name] = scope.match.pk
        elif name == "game_id":
            assert scope.game is not None
            values[name] = scope.game.pk
        elif name == "event_id":
            values[name] = scope.deleted_event_id
        elif name == "username":
            # The tournament's invited user and co-organiser: neither is the club's.
            invited = "invitation" in route.name
            values[name] = scope.invited_name if invited else scope.co_organiser_name
        else:
            values[name] = getattr(scope, name)
        assert values[name] is not None, f"scope {scope_name} names no {name} for {route.name}"
    return values


def _web_route(name: str) -> UrlRoute:
    return next(route for route in url_routes() if route.name == name)


def _edit_form(scope: Scope, **changes: Any) -> dict[str, Any]:
    """The settings form as the edit page fills it in, with ``changes``."""
    assert scope.tournament is not None
    initial = TournamentForm.initial_from(scope.tournament)
    initial.update(changes)
    data: dict[str, Any] = {}
    for name, value in initial.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list | tuple):
            data[name] = [str(v) for v in value]
        elif value is None:
            data[name] = ""
        elif isinstance(value, dict):
            data[name] = json.dumps(value)
        else:
            data[name] = str(getattr(value, "pk", value))
    return data


WEB_BODIES: dict[str, Any] = {
    "web:tournament-edit POST [public]": lambda scope: _edit_form(
        scope, public=not scope.tournament.public
    ),
    "web:tournament-edit POST [organisers]": lambda scope: _edit_form(
        scope, co_organisers=f"{scope.co_organiser_name}, {scope.invited_name}, stranger"
    ),
    "web:tournament-edit POST [name]": lambda scope: _edit_form(scope, name="Renamed"),
}


def request_for(key: str, world: World, role: str, scope_name: str) -> Request:
    name, method, variant = key_parts(key)
    scope = _scope_object(world.scopes[scope_name], variant)
    if name in openapi_operations():
        documented_method, template = openapi_operations()[name]
        assert documented_method == method, key
        body = API_BODIES.get(f"{name} [{variant}]" if variant else name, {})
        return Request(
            api=True,
            method=method,
            path=_api_path(template, name, scope),
            data=body(scope) if callable(body) else body,
        )
    if name == ADMIN_FAMILY:
        # The admin site: its index, and the change page of the scope's tournament.
        if scope.tournament is None:
            return Request(api=False, method=method, path=reverse("admin:index"))
        path = reverse("admin:tournaments_tournament_change", args=[scope.tournament.pk])
        return Request(api=False, method=method, path=path, data={} if method == "POST" else None)
    route = _web_route(name)
    kwargs = _web_kwargs(route, world, role, scope_name, scope)
    path = "/" + re.sub(
        r"<(?:[^>:]+:)?([^>]+)>", lambda found: str(kwargs[found.group(1)]), route.path
    )
    body = WEB_BODIES.get(key, {})
    data = body(scope) if callable(body) else body
    return Request(
        api=route.path.startswith(API_PREFIX),
        method=method,
        path=path,
        data=data if method == "POST" else None,
    )

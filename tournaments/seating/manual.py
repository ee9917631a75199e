"""The manual seating check: an organiser's tables, validated before they are stored.

Vocabulary (the package docstring has the rest): **tables** are numbered from
1 in the order given; the **bye list** holds the active players without a
table. Every refusal is a ``UserError`` on the field ``tables`` that names the
player or table at fault.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from scoring.errors import UserError, _, ngettext_lazy


def plan_check(
    *,
    players: Collection[int],
    tables: Sequence[Sequence[int]],
    byes: Sequence[int] = (),
    max_size: int = 4,
) -> None:
    """Validate an organiser's seating; raise a ``UserError`` naming the player or table.

    Every active player is seated exactly once or has a bye, nobody else is
    seated, and every table seats 2 to ``max_size``. Tables are numbered from 1.
    """
    active = set(players)
    seen: dict[int, int] = {}  # player -> table number (0: the bye list)
    for number, table in enumerate(tables, start=1):
        for player in table:
            if player not in active:
                raise UserError(
                    _("Player %(player)s at table %(table)s is not an active player."),
                    field="tables",
                    player=player,
                    table=number,
                )
            if player in seen:
                raise UserError(
                    _("Player %(player)s is seated twice: at tables %(first)s and %(table)s."),
                    field="tables",
                    player=player,
                    first=seen[player],
                    table=number,
                )
            seen[player] = number
        if not 2 <= len(table) <= max_size:
            one, many = ngettext_lazy(
                "Table %(table)s has %(size)s player; a table seats 2 to %(max_size)s.",
                "Table %(table)s has %(size)s players; a table seats 2 to %(max_size)s.",
            )
            raise UserError(
                one,
                plural=many,
                plural_of="size",
                field="tables",
                table=number,
                size=len(table),
                max_size=max_size,
            )
    for player in byes:
        if player not in active:
            raise UserError(
                _("Player %(player)s has a bye but is not an active player."),
                field="tables",
                player=player,
            )
        if player in seen:
            where = seen[player]
            if where == 0:
                raise UserError(_("Player %(player)s has two byes."), field="tables", player=player)
            raise UserError(
                _("Player %(player)s has a bye and is also seated at table %(table)s."),
                field="tables",
                player=player,
                table=where,
            )
        seen[player] = 0
    for player in sorted(active - seen.keys()):
        raise UserError(
            _("Player %(player)s has no seat: seat them at a table or give them a bye."),
            field="tables",
            player=player,
        )

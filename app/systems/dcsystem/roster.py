"""DCSystem rosters: entries, the Renfort group, hidden moves (G.a), the score (E.3).

Line numbers (Lnnn) refer to shared/rules/dcsystem-stargates-war.fr.txt.
"""

from collections.abc import Callable
from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from app.systems.base import (
    Between,
    CatalogueId,
    CostLine,
    EntryBase,
    EntryResult,
    Issue,
    RosterResult,
    ScoreResult,
    error,
    prefixed,
    warning,
)
from app.systems.catalogued import RosterBase, empty_roster, over_points_limit
from app.systems.dcsystem.catalogue import HIDDEN_MOVE_IDS, Catalogue, HiddenMove
from app.systems.dcsystem.engine import (
    DcsystemFighter,
    DcsystemFighterCost,
    DcsystemFighterDerived,
    cost_fighter,
    unit_definition,
)
from app.systems.memo import EntryMemo, entry_keys

Costing = Literal["printed", "computed"]
HiddenMoveRef = Annotated[str, CatalogueId(HIDDEN_MOVE_IDS, "hidden move")]


class DcsystemExtras(BaseModel):
    """What a DCSystem roster holds beside its entries."""

    model_config = ConfigDict(extra="forbid", strict=True)

    hidden_moves: list[HiddenMoveRef] = Field(
        default_factory=list, max_length=10, description="Coups cachés bought (G.a)."
    )
    hidden_moves_agreed: bool = Field(
        False, description="The players agreed to more than one hidden move per player (L357)."
    )
    costing: Costing = Field(
        "printed",
        description="Catalogue units at their printed cost, or at what the creation rules give.",
    )


class EntryShape(Protocol):
    unit: str | None
    custom: DcsystemFighter | None
    name: str | None
    count: int
    group: Literal["renfort"] | None


class RosterShape(Protocol):
    name: str
    points_limit: int | None
    entries: list[Any]
    extras: DcsystemExtras


class DcsystemEntryBase(EntryBase):
    """A catalogue unit ('unit') or a custom fighter ('custom'), never both."""

    unit: str | None = None
    custom: DcsystemFighter | None = None
    group: Literal["renfort"] | None = Field(
        None, description="'renfort': listed in the Renfort group, not counted (L359-360)."
    )


class DcsystemRosterBase(RosterBase):
    """A DCSystem roster document (api-v1.md, "Roster documents")."""

    system: Literal["dcsystem"]
    entries: list[DcsystemEntryBase] = Field(default_factory=list, max_length=200)
    extras: DcsystemExtras = Field(default_factory=DcsystemExtras)


class DcsystemHiddenMoveLine(BaseModel):
    id: str
    name: str
    points: int


class DcsystemRosterDerived(BaseModel):
    costing: Costing
    hidden_moves: list[DcsystemHiddenMoveLine]
    hidden_moves_points: int
    reinforcement_points: int = Field(description="Points of the Renfort group (not counted).")
    reinforcement_limit: int | None


class DcsystemEntryResult(EntryResult[DcsystemFighterDerived]):
    """One roster entry once validated."""


class DcsystemResult(RosterResult[DcsystemFighterDerived, DcsystemRosterDerived]):
    """A validated DCSystem roster."""

    entries: list[DcsystemEntryResult]  # type: ignore[assignment]


CostFunction = Callable[[DcsystemFighter], DcsystemFighterCost]


def _entry_result(
    catalogue: Catalogue, entry: EntryShape, index: int, costing: Costing, cost: CostFunction
) -> DcsystemEntryResult:
    path = f"entries[{index}]"
    costed: DcsystemFighterCost
    if entry.unit is not None:
        unit = catalogue.unit(entry.unit)
        costed = cost(unit_definition(unit))  # cached per (level, items) by DcSystem
        # A printed profile is played as printed; its disagreements with the creation rules
        # are the catalogue's discrepancies, not the player's errors.
        unit_points = unit.points if costing == "printed" else costed.points
        issues: list[Issue] = []
        name = entry.name or unit.name
    else:
        assert entry.custom is not None
        costed = cost(entry.custom)
        unit_points = costed.points
        issues = prefixed(costed.issues, f"{path}.custom")
        name = entry.name or f"Combattant de niveau {entry.custom.level}"
    counted = entry.group != "renfort"
    # Built from values the engine made and checked: no second validation (hot path).
    return DcsystemEntryResult.model_construct(
        name=name,
        count=entry.count,
        unit_points=unit_points,
        points=unit_points * entry.count if counted else 0,
        counted=counted,
        breakdown=list(costed.breakdown),
        derived=costed.derived,
        issues=issues,
    )


def validate_roster(
    catalogue: Catalogue,
    roster: RosterShape,
    cost: CostFunction | None = None,
    memo: "EntryMemo[DcsystemEntryResult] | None" = None,
) -> DcsystemResult:
    """Totals and issues of a roster; `cost` may be a cached `cost_fighter` (costs are pure),
    `memo` a memory of entry results (each a function of the entry, its index and the
    costing: app/systems/memo.py)."""
    extras = roster.extras
    costing = extras.costing
    priced = cost or (lambda fighter: cost_fighter(catalogue, fighter))

    def result(index: int) -> DcsystemEntryResult:
        return _entry_result(catalogue, roster.entries[index], index, costing, priced)

    if memo is None:
        entries = [result(index) for index in range(len(roster.entries))]
    else:
        # Each entry's key, shared with its summary line's (app/systems/memo.py).
        keys = entry_keys(roster.entries)
        entries = memo.each([(key, index, costing) for index, key in enumerate(keys)], result)
    moves = [catalogue.hidden_move(move_id) for move_id in extras.hidden_moves]
    roster_issues = _hidden_move_issues(catalogue, extras)

    reinforcement_points = sum(e.unit_points * e.count for e in entries if not e.counted)
    renfort = next((move for move in moves if move.reinforcement_limit is not None), None)
    roster_issues += _reinforcement_issues(roster, extras, entries, renfort, reinforcement_points)

    hidden_points = sum(move.points for move in moves)
    points = sum(e.points for e in entries) + hidden_points
    roster_issues += over_points_limit(points, roster.points_limit)
    roster_issues += empty_roster(roster.entries, "aucun combattant")
    derived = DcsystemRosterDerived(
        costing=extras.costing,
        hidden_moves=[DcsystemHiddenMoveLine(id=m.id, name=m.name, points=m.points) for m in moves],
        hidden_moves_points=hidden_points,
        reinforcement_points=reinforcement_points,
        reinforcement_limit=renfort.reinforcement_limit if renfort else None,
    )
    return DcsystemResult.of(roster, points, roster_issues, entries, derived)


def _reinforcement_issues(
    roster: RosterShape,
    extras: DcsystemExtras,
    entries: list[DcsystemEntryResult],
    renfort: HiddenMove | None,
    reinforcement_points: int,
) -> list[Issue]:
    """The Renfort group's issues (L359): an entry in it without the hidden move (added to
    that entry's result, in place in `entries`), the group over its limit or empty."""
    roster_issues: list[Issue] = []
    reinforcement_indexes = [i for i, e in enumerate(roster.entries) if e.group == "renfort"]
    if reinforcement_indexes and renfort is None:
        for i in reinforcement_indexes:
            missing = error(
                "reinforcement_without_hidden_move",
                "Le groupe Renfort demande le coup caché « Renfort » (L359).",
                f"entries[{i}].group",
            )
            # A copy: the entry's own result may be the memory's (app/systems/memo.py).
            entries[i] = entries[i].model_copy(update={"issues": [*entries[i].issues, missing]})
    if renfort is None or renfort.reinforcement_limit is None:
        return roster_issues
    path = f"extras.hidden_moves[{extras.hidden_moves.index(renfort.id)}]"
    limit = renfort.reinforcement_limit
    if reinforcement_points > limit:
        roster_issues.append(
            error(
                "reinforcement_over_limit",
                f"Le groupe Renfort vaut {reinforcement_points} points pour {limit} au plus "
                f"({reinforcement_points - limit} de trop).",
                path,
            )
        )
    if not reinforcement_indexes:
        roster_issues.append(
            warning(
                "reinforcement_group_empty",
                "Coup caché « Renfort » acheté sans figurine dans le groupe Renfort.",
                path,
            )
        )
    return roster_issues


def _hidden_move_issues(catalogue: Catalogue, extras: DcsystemExtras) -> list[Issue]:
    """G.a (L357): one hidden move per player unless the players agree."""
    allowed = catalogue.hidden_move_rules.per_player
    if extras.hidden_moves_agreed or len(extras.hidden_moves) <= allowed:
        return []
    return [
        warning(
            "hidden_moves_beyond_one",
            f"{len(extras.hidden_moves)} coups cachés : un seul par joueur, à moins que les "
            "joueurs se mettent d'accord.",
            f"extras.hidden_moves[{index}]",
        )
        for index in range(allowed, len(extras.hidden_moves))
    ]


class DcsystemScoreRequest(BaseModel):
    """E.3 Calcul du score (L306-313)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    format: Annotated[int, Between(1, 100_000)] = Field(description="Points per side (e.g. 200).")
    main_mission: bool = False
    secondary_mission: bool = False
    kills: dict[Literal["1", "2", "3"], Annotated[int, Between(0, 10_000)]] = Field(
        default_factory=dict, description="Enemies put out of action, by level."
    )


def score(catalogue: Catalogue, request: DcsystemScoreRequest) -> ScoreResult:
    rules = catalogue.score
    lines = []
    # "Mission principal accomplie= (Format de la partie/10) points" (L308), the secondary
    # one likewise; rounded down when the format is not a multiple (note 7).
    missions = (
        ("main_mission", "Mission principale", request.main_mission, rules.main_mission_divisor),
        (
            "secondary_mission",
            "Mission secondaire",
            request.secondary_mission,
            rules.secondary_mission_divisor,
        ),
    )
    for mission, name, done, divisor in missions:
        if done:
            label = f"{name} ({request.format}/{divisor})"
            lines.append(CostLine(id=mission, label=label, points=request.format // divisor))
    for level in ("3", "2", "1"):
        count = request.kills.get(level, 0)
        if count:
            each = rules.kill_points[level]
            lines.append(
                CostLine(
                    id=f"kills_level_{level}",
                    label=f"{count} ennemi(s) de niveau {level} hors jeu × {each}",
                    points=count * each,
                )
            )
    return ScoreResult(points=sum(line.points for line in lines), breakdown=lines)

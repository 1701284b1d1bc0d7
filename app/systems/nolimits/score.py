"""No Limits victory points (L356-375): what one player scores at the end of a game.

Lnnn = line of shared/rules/no-limits.fr.txt; "note N" = docs/rules-notes.md (No Limits).
"""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.systems.base import NO_NUL, Between, CostLine, ScoreResult
from app.systems.nolimits.catalogue import Catalogue


class NolimitsEliminated(BaseModel):
    """Enemy models of one kind eliminated by this player."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(
        "", max_length=80, pattern=NO_NUL, description="What they were (for the breakdown)."
    )
    points: Annotated[int, Between(0, 100_000)] = Field(description="Points of one model.")
    count: Annotated[int, Between(1, 1000)] = 1


class NolimitsScoreRequest(BaseModel):
    """The victory points of one player (L356-375).

    `eliminated`: the enemy models this player eliminated, at their army-list points (L359).
    `general_points`: the enemy general's points if it was eliminated — counted double
    (L364); do not list it in `eliminated` as well. `terrain_held`: designated terrain
    pieces this player controls (+100 each, L365). `enemy_banner`: the enemy army banner
    captured or destroyed (+50, L366). `enemy_conceded` with `enemy_survivors_points`: the
    opponent conceded; this player adds half the points of the enemy's surviving models
    (L375, rounded down)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    eliminated: list[NolimitsEliminated] = Field(default_factory=list, max_length=200)
    general_points: Annotated[int, Between(0, 100_000)] | None = Field(
        None, description="The enemy general's points, if eliminated (counted double, L364)."
    )
    terrain_held: Annotated[int, Between(0, 10)] = Field(
        0, description="Designated terrain pieces controlled (+100 each, L365)."
    )
    enemy_banner: bool = Field(False, description="Enemy banner captured or destroyed (L366).")
    enemy_conceded: bool = Field(False, description="The opponent conceded (L375).")
    enemy_survivors_points: Annotated[int, Between(0, 1_000_000)] = Field(
        0, description="Points of the conceding army's surviving models (L375)."
    )


def score(catalogue: Catalogue, request: NolimitsScoreRequest) -> ScoreResult:
    rules = catalogue.score
    lines = [
        CostLine(
            id=f"elimines_{index}",
            label=f"{group.count} × {group.name or 'figurine'} éliminée(s) à {group.points} pts",
            points=group.count * group.points,
        )
        for index, group in enumerate(request.eliminated)
    ]
    bonuses: list[tuple[str, str, int]] = []  # id, label, points
    if request.general_points is not None:
        label = (
            f"Général adverse éliminé : {request.general_points} pts × {rules.general_multiplier}"
        )
        bonuses.append(("general", label, request.general_points * rules.general_multiplier))
    if request.terrain_held:
        label = (
            f"{request.terrain_held} élément(s) de décor désigné(s) contrôlé(s) "
            f"× {rules.terrain_points}"
        )
        bonuses.append(("decor_designe", label, request.terrain_held * rules.terrain_points))
    if request.enemy_banner:
        label = "Bannière d'armée adverse prise ou détruite"
        bonuses.append(("banniere", label, rules.banner_points))
    if request.enemy_conceded:
        survivors = request.enemy_survivors_points
        label = f"Abandon adverse : moitié des {survivors} pts de survivants"
        bonuses.append(("abandon", label, survivors // rules.concession_divisor))
    lines += [CostLine(id=id_, label=label, points=points) for id_, label, points in bonuses]
    return ScoreResult(points=sum(line.points for line in lines), breakdown=lines)

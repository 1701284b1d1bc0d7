"""A figure's numbers: actions per turn, score to hit, encumbrance, command radius.

Pure functions over the catalogue; the text prices nothing, so the "cost" of a figure is
0 points with an empty breakdown and everything else is in `derived`.
Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

from pydantic import BaseModel, Field

from app.systems.base import Costed, Issue, error
from app.systems.necrowarzone.catalogue import Catalogue, LightWound
from app.systems.necrowarzone.models import NecrowarzoneFigure


class NecrowarzoneFigureDerived(BaseModel):
    """What the table needs to know of a figure (api-v1.md: the first four are the contract)."""

    actions: int = Field(
        description="Actions per turn: the XP band (L9-11), the chef's in brackets, "
        "less 1 per light wound, minimum 1 (L78)."
    )
    to_hit: int | None = Field(
        description="Score needed to hit (L38-39) with the CT after light wounds; "
        "null when the CT is off the table."
    )
    encumbered: bool = Field(
        description="Carries a heavy weapon or heavy equipment: -1 in close combat (L70)."
    )
    command_radius: int | None = Field(
        description="The chef's Cd, in pas (L31, L32, L54); null for the others."
    )
    base_actions: int = Field(description="Actions per turn before light wounds (L9-11).")
    effective_cc: int = Field(description="CC after light wounds (L78).")
    effective_ct: int = Field(description="CT after light wounds (L78).")


class NecrowarzoneFigureCost(Costed[NecrowarzoneFigureDerived]):
    """A figure's numbers: 0 points and an empty breakdown (the text prices nothing)."""


# Short names for the engine's own modules and tests.


def reduced(value: int, light_wounds: int, per_wound: int, rule: LightWound) -> int:
    """`value` after the light wounds, not below the minimum of L78 (a value already
    below it, reported elsewhere, is left as it is)."""
    return max(min(value, rule.minimum), value + per_wound * light_wounds)


def base_actions(catalogue: Catalogue, xp: int, leader: bool) -> int:
    """NOMBRE D’ACTIONS DES PERSONNAGES (L7-11): the XP band, the chef's in brackets."""
    band = catalogue.band(xp)
    return band.leader_actions if leader else band.actions


def figure_issues(catalogue: Catalogue, figure: NecrowarzoneFigure) -> list[Issue]:
    """What the text rules out in a figure: XP below 0 (L9), a CT off the table (L38)."""
    issues = []
    if figure.xp < 0:
        issues.append(
            error(
                "invalid_xp",
                f"{figure.xp} XP : l’expérience commence à 0 (tableau des actions, L9).",
                "xp",
            )
        )
    ct = figure.profile.CT
    if catalogue.to_hit_score(ct) is None:
        cts = sorted(catalogue.to_hit_scores)
        issues.append(
            error(
                "ct_off_table",
                f"CT {ct} : le tableau pour toucher va de CT {cts[0]} à CT {cts[-1]} (L38-39).",
                "profile.CT",
            )
        )
    return issues


def cost_figure(catalogue: Catalogue, figure: NecrowarzoneFigure) -> NecrowarzoneFigureCost:
    """The figure's derived numbers and issues; no points (the text has none)."""
    wound = catalogue.light_wound
    lw = figure.light_wounds
    base = base_actions(catalogue, figure.xp, figure.leader)
    effective_ct = reduced(figure.profile.CT, lw, wound.ct, wound)
    # A CT off the table gets no score, even once light wounds bring it back on it.
    on_table = catalogue.to_hit_score(figure.profile.CT) is not None
    derived = NecrowarzoneFigureDerived(
        actions=reduced(base, lw, wound.actions, wound),
        to_hit=catalogue.to_hit_score(effective_ct) if on_table else None,
        encumbered=figure.heavy_equipment or any(weapon.heavy for weapon in figure.weapons),
        command_radius=figure.profile.Cd if figure.leader else None,
        base_actions=base,
        effective_cc=reduced(figure.profile.CC, lw, wound.cc, wound),
        effective_ct=effective_ct,
    )
    return NecrowarzoneFigureCost(
        points=0, breakdown=[], derived=derived, issues=figure_issues(catalogue, figure)
    )

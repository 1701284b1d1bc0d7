"""The shooting helper: the score a shot needs, from the CT (L38-39) and the modifiers (L40-49).

The modifiers are added to the roll (L34 "malus ... sur son jet pour toucher"), so the score
needed is the table's score minus their sum. Lnn = line of
shared/rules/necromunda-warzone.fr.txt.
"""

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, Field, computed_field

from app.systems.base import INPUT, Between, Issue, error, is_valid, warning
from app.systems.necrowarzone.catalogue import (
    COVER_IDS,
    Catalogue,
    ConditionId,
    CoverId,
    ShootingModifier,
)

TableModifierId = Literal[CoverId, ConditionId]

# Outside the text: the to-hit table is Necromunda's, and so is the way to read a score
# off the die (docs/rules-notes.md, Necromunda–Warzone).
OUTSIDE_TEXT = "règle de Necromunda, hors texte"


class NecrowarzoneShotRequest(BaseModel):
    """A shot to work out: the shooter's CT and what applies to this shot."""

    model_config = INPUT

    ct: Annotated[int, Between(1, 10)] = Field(
        description="The shooter's CT, after light wounds (L78); the table covers 1-10 (L38)."
    )
    modifiers: list[TableModifierId] = Field(
        default_factory=list,
        max_length=20,
        description="Rows of L41-47 that apply, by id; one cover row at most (L40).",
    )
    target_took_cover: bool = Field(
        False,
        description="The target used Se mettre à couvert (L34): its cover row counts its "
        "bracketed value (L41-42), once.",
    )
    aim_actions: Annotated[int, Between(0, 4)] = Field(
        0, description="Viser actions before the shot, +1 each (L48); lost at turn end (L22)."
    )
    weapon_modifier: Annotated[int, Between(-1, 1)] = Field(
        0, description="The weapon's modifier, +/-1 (L49)."
    )


class NecrowarzoneShotModifierLine(BaseModel):
    """One modifier applied to the shot, as the table prints it."""

    id: str
    label: str
    value: int
    source: str


class NecrowarzoneShotResult(BaseModel):
    """The score needed, how to roll it on 1D6, and the chance to hit."""

    ct: int
    table_score: int = Field(description="The score the table gives this CT (L38-39).")
    modifiers: list[NecrowarzoneShotModifierLine]
    modifier_total: int
    needed: int = Field(
        description="table_score minus the modifiers: the score the roll must reach, "
        "which may fall off the die (below 2, above 6)."
    )
    roll: str = Field(description="How to roll it on 1D6, in French: 4+, 6 puis 5+, impossible.")
    chance: str = Field(description="The exact chance to hit, as a fraction in lowest terms.")
    note: str | None = Field(
        description="Why the roll reads so when the score is off the die (outside the text)."
    )
    issues: list[Issue]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def valid(self) -> bool:
        return is_valid(self.issues)


def read_roll(needed: int) -> tuple[str, Fraction, str | None]:
    """How a score reads on 1D6, the chance to make it, and a note when off the die.

    A 1 always misses; 7, 8 and 9 take a 6 then 4+, 5+, 6+; 10 or more cannot be made."""
    if needed <= 1:
        return "2+", Fraction(5, 6), f"Un 1 rate toujours ({OUTSIDE_TEXT}) : 2+ au mieux."
    if needed <= 6:
        return f"{needed}+", Fraction(7 - needed, 6), None
    if needed <= 9:
        second = needed - 3
        note = f"Au-delà de 6 : un 6, puis {second}+ sur un second dé ({OUTSIDE_TEXT})."
        return f"6 puis {second}+", Fraction(1, 6) * Fraction(7 - second, 6), note
    return "impossible", Fraction(0), f"Un score de 10 ou plus ne s’obtient pas ({OUTSIDE_TEXT})."


def _applied(
    request: NecrowarzoneShotRequest, catalogue: Catalogue
) -> tuple[set[str], list[Issue]]:
    """The table rows that count: duplicates once, the strongest cover only (L40)."""
    issues = []
    first: dict[str, int] = {}
    for index, modifier_id in enumerate(request.modifiers):
        if modifier_id in first:
            name = catalogue.modifier(modifier_id).name
            issues.append(
                warning("duplicate_modifier", f"« {name} » est déjà compté.", f"modifiers[{index}]")
            )
        else:
            first[modifier_id] = index
    covers = [catalogue.modifier(modifier_id) for modifier_id in first if modifier_id in COVER_IDS]
    if covers:
        kept = min(covers, key=lambda cover: _cover_value(cover, request.target_took_cover))
        for cover in covers:
            if cover is not kept:
                issues.append(
                    warning(
                        "several_cover_modifiers",
                        f"Un seul modificateur de couvert (L40) : « {kept.name} » compte, "
                        f"« {cover.name} » non.",
                        f"modifiers[{first[cover.id]}]",
                    )
                )
                del first[cover.id]
    elif request.target_took_cover:
        issues.append(
            warning(
                "took_cover_without_cover",
                "Se mettre à couvert demande d’être derrière un couvert, même partiel (L34) : "
                "indiquer le couvert de la cible.",
                "target_took_cover",
            )
        )
    if {"petite_cible", "grande_cible"} <= first.keys():
        issues.append(
            error(
                "small_and_large_target",
                "Une cible ne peut être à la fois petite (L45) et grande (L47).",
                "modifiers",
            )
        )
    return set(first), issues


def _cover_value(cover: ShootingModifier, took_cover: bool) -> int:
    if took_cover and cover.took_cover_value is not None:
        return cover.took_cover_value
    return cover.value


def _line(
    modifier: ShootingModifier, request: NecrowarzoneShotRequest
) -> NecrowarzoneShotModifierLine | None:
    label, value, source = modifier.name, modifier.value, modifier.source
    if modifier.kind == "couvert" and request.target_took_cover:
        # The bracketed value already holds L34's -1: it is not taken off again.
        label, value = f"{label} (s’est mise à couvert)", _cover_value(modifier, True)
        source = f"{source}, L34"
    elif modifier.kind == "par_action":
        if not request.aim_actions:
            return None
        label, value = f"{label} × {request.aim_actions}", modifier.value * request.aim_actions
    elif modifier.kind == "arme":
        if not request.weapon_modifier:
            return None
        value = request.weapon_modifier
    return NecrowarzoneShotModifierLine(id=modifier.id, label=label, value=value, source=source)


def needed_to_hit(catalogue: Catalogue, request: NecrowarzoneShotRequest) -> NecrowarzoneShotResult:
    """The score a shot needs (L38-49) and how it reads on 1D6."""
    applied, issues = _applied(request, catalogue)
    lines = []
    for modifier in catalogue.shooting.modifiers:  # in the order of the printed table
        if modifier.kind in ("couvert", "condition") and modifier.id not in applied:
            continue
        line = _line(modifier, request)
        if line is not None:
            lines.append(line)
    table_score = catalogue.to_hit_scores[request.ct]
    total = sum(line.value for line in lines)
    needed = table_score - total
    roll, chance, note = read_roll(needed)
    return NecrowarzoneShotResult(
        ct=request.ct,
        table_score=table_score,
        modifiers=lines,
        modifier_total=total,
        needed=needed,
        roll=roll,
        chance=str(chance),
        note=note,
        issues=issues,
    )


# Short names for the engine's own modules and tests.

"""DCSystem rules: the cost, dice and limits of a fighter (part F), rosters, score (E.3).

Pure functions over the catalogue. Line numbers (Lnnn) refer to
shared/rules/dcsystem-stargates-war.fr.txt; "note N" to docs/rules-notes.md.
"""

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from app.systems.base import CatalogueId, Costed, CostLine, Integral, Issue, error, warning
from app.systems.dcsystem.catalogue import ITEM_IDS, Catalogue, DcsystemDice, Item, Level, Unit

# Item ids are fixed by api-v1.md; an unknown id is refused with code "unknown_id".
ItemRef = Annotated[str, CatalogueId(ITEM_IDS, "item")]


class DcsystemFighter(BaseModel):
    """A fighter as the creation table builds it (api-v1.md, "dcsystem unit definition")."""

    model_config = ConfigDict(strict=True)

    level: Annotated[Level, Integral] = Field(description="Niveau du combattant (part B).")
    items: list[ItemRef] = Field(
        default_factory=list,
        max_length=40,
        description="Capacités, équipements and handicaps, by id.",
    )


class DcsystemSlots(BaseModel):
    """How much of the level's allowance the fighter uses (F.a, L316-319)."""

    used: int = Field(description="Capacités and équipements counted against the level.")
    allowed: int = Field(description="The level's allowance, plus one for Élite (and Héros).")
    handicaps_used: int
    handicaps_allowed: int


class DcsystemWeaponDice(BaseModel):
    id: str
    name: str
    type: str = Field(description="'tir' (white dice) or 'cc' (yellow dice).")
    dice: int


class DcsystemFighterDerived(BaseModel):
    level: int
    dice: DcsystemDice
    slots: DcsystemSlots
    weapons: list[DcsystemWeaponDice]


def fighter_dice(catalogue: Catalogue, level: int, items: Sequence[Item]) -> DcsystemDice:
    """Part B gives red and blue by level; items add or remove (L259, L277-278, L286).

    A shot or a blow uses one weapon: the white (yellow) dice are those of the best shooting
    (close-combat) weapon, not a sum (note 6)."""
    rule = catalogue.level(level)
    weapons = weapon_dice(items)
    return DcsystemDice(
        red=max(0, rule.red + sum(item.red for item in items)),
        blue=max(0, rule.blue + sum(item.blue for item in items)),
        white=max((w.dice for w in weapons if w.type == "tir"), default=0),
        yellow=max((w.dice for w in weapons if w.type == "cc"), default=0),
    )


def weapon_dice(items: Sequence[Item]) -> list[DcsystemWeaponDice]:
    """Each weapon's dice, raised by Force or Puissance de tir (L261, L282) when it is of the
    level they name, whatever the item: the Lance flamme (L280) and the Mortier (L281) are
    « une arme de tir de niveau 3 » as much as the Arme de tir niveau 3 is."""
    boosts = [item.boosts for item in items if item.boosts is not None]
    weapons = []
    for item in items:
        if item.weapon is None:
            continue
        dice = item.weapon.dice
        for boost in boosts:
            if boost.raises(item.weapon):
                dice = max(dice, boost.dice)
        weapons.append(
            DcsystemWeaponDice(id=item.id, name=item.name, type=item.weapon.type, dice=dice)
        )
    return weapons


class DcsystemFighterCost(Costed[DcsystemFighterDerived]):
    """The cost of one fighter: the breakdown's points add up to `points`."""


def cost_fighter(catalogue: Catalogue, fighter: DcsystemFighter) -> DcsystemFighterCost:
    """F. Création d'un combattant: level + each item, handicaps subtracting, Équilibre."""
    rule = catalogue.level(fighter.level)
    breakdown = [
        CostLine(id=f"niveau_{rule.level}", label=f"Niveau {rule.level}", points=rule.points)
    ]
    chosen, issues = _chosen_items(catalogue, fighter.items)
    # Grenade and mortier bring their handicap with them, free and outside the limit (note 3).
    bundled: dict[str, Item] = {item.brings: item for item in chosen if item.brings is not None}
    issues += _item_lines(catalogue, fighter.items, chosen, bundled, breakdown)

    dice = fighter_dice(catalogue, fighter.level, chosen)
    if dice.white == 0:
        # F.d Équilibre (L353-354), note 2.
        breakdown.append(
            CostLine(
                id="equilibre", label="Équilibre (aucun dé blanc)", points=catalogue.balance.points
            )
        )

    slots = _slots(catalogue, fighter.level, chosen, bundled)
    issues += _limit_issues(fighter.level, slots)
    issues += _useless_boosts(catalogue, chosen, fighter.items)
    points = sum(line.points for line in breakdown)
    if points <= 0:
        issues.append(
            warning(
                "cost_not_positive",
                f"Ce combattant coûte {points} point(s) : la règle ne prévoit pas un coût nul "
                "ou négatif.",
            )
        )
    derived = DcsystemFighterDerived(
        level=fighter.level, dice=dice, slots=slots, weapons=weapon_dice(chosen)
    )
    return DcsystemFighterCost(points=points, breakdown=breakdown, derived=derived, issues=issues)


def _chosen_items(catalogue: Catalogue, item_ids: Sequence[str]) -> tuple[list[Item], list[Issue]]:
    """The fighter's items in order, each once (a second choice of one is an issue)."""
    issues: list[Issue] = []
    chosen: list[Item] = []
    for index, item_id in enumerate(item_ids):
        item = catalogue.item(item_id)
        if item in chosen:
            issues.append(
                error("duplicate_item", f"« {item.name} » est déjà choisi.", f"items[{index}]")
            )
            continue
        chosen.append(item)
    return chosen, issues


def _item_lines(
    catalogue: Catalogue,
    item_ids: Sequence[str],
    chosen: Sequence[Item],
    bundled: dict[str, Item],
    breakdown: list[CostLine],
) -> list[Issue]:
    """One cost line per item (a handicap an item already brings is free), then the free line
    of each brought handicap not chosen; the issues of handicaps chosen twice that way."""
    issues: list[Issue] = []
    for item in chosen:
        if item.id in bundled:
            carrier = bundled[item.id]
            breakdown.append(
                CostLine(
                    id=item.id, label=f"{item.name} (déjà donnée par {carrier.name})", points=0
                )
            )
            issues.append(
                warning(
                    "handicap_already_given",
                    f"{carrier.name} donne déjà le handicap « {item.name} » : il ne rapporte rien.",
                    f"items[{list(item_ids).index(item.id)}]",
                )
            )
        else:
            breakdown.append(CostLine(id=item.id, label=item.name, points=item.points))
    for handicap_id, carrier in bundled.items():
        if all(item.id != handicap_id for item in chosen):
            handicap = catalogue.item(handicap_id)
            breakdown.append(
                CostLine(
                    id=handicap.id,
                    label=f"{handicap.name} (comprise avec {carrier.name})",
                    points=0,
                )
            )
    return issues


def _slots(
    catalogue: Catalogue, level: int, chosen: Sequence[Item], bundled: dict[str, Item]
) -> DcsystemSlots:
    rule = catalogue.level(level)
    return DcsystemSlots(
        used=sum(1 for item in chosen if item.kind != "handicap" and item.counts_as_slot),
        allowed=rule.slots + sum(item.extra_slots for item in chosen),
        handicaps_used=sum(
            1 for item in chosen if item.kind == "handicap" and item.id not in bundled
        ),
        handicaps_allowed=rule.handicaps,
    )


def _limit_issues(level: int, slots: DcsystemSlots) -> list[Issue]:
    """F.a (L317-319): N capacités or équipements and one handicap at most."""
    used, allowed = slots.used, slots.allowed
    handicaps, most = slots.handicaps_used, slots.handicaps_allowed
    items = f"Niveau {level} : {used} capacités ou équipements pour {allowed} autorisé(s)"
    return _over("too_many_items", used, allowed, items) + _over(
        "too_many_handicaps", handicaps, most, f"{handicaps} handicaps pour {most} autorisé"
    )


def _over(code: str, used: int, allowed: int, said: str) -> list[Issue]:
    """An error when `used` is over `allowed` (`said`: how many for how many)."""
    if used <= allowed:
        return []
    return [error(code, f"{said}, {used - allowed} de trop.", "items")]


def _useless_boosts(
    catalogue: Catalogue, chosen: Sequence[Item], item_ids: Sequence[str]
) -> list[Issue]:
    """Force or Puissance de tir without a weapon of the level they raise: charged, warned."""
    issues = []
    for item in chosen:
        boost = item.boosts
        if boost is None or any(o.weapon and boost.raises(o.weapon) for o in chosen):
            continue
        kind = "de tir" if boost.type == "tir" else "de corps à corps"
        names = [o.name for o in catalogue.items if o.weapon and boost.raises(o.weapon)]
        issues.append(
            warning(
                "boost_without_weapon",
                f"« {item.name} » n'a d'effet qu'avec une arme {kind} de niveau {boost.level} "
                f"({_french_list(names)}).",
                f"items[{item_ids.index(item.id)}]",
            )
        )
    return issues


def _french_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} ou {names[-1]}"


def unit_definition(unit: Unit) -> DcsystemFighter:
    return DcsystemFighter(level=unit.level, items=list(unit.items))


def discrepancies(catalogue: Catalogue, unit: Unit) -> list[str]:
    """Where a printed profile and the creation rules disagree, one line each (in French)."""
    costed = cost_fighter(catalogue, unit_definition(unit))
    lines = []
    if costed.points != unit.points:
        terms = " ".join(
            f"{'−' if line.points < 0 else '+'} {abs(line.points)}"
            for line in costed.breakdown[1:]
            if line.points
        )
        base = catalogue.unit(unit.variant_of) if unit.variant_of else None
        free = " (option gratuite)" if base is not None and base.points == unit.points else ""
        lines.append(
            f"Coût imprimé {unit.points} points{free} ; les règles de création donnent "
            f"{costed.points} points ({costed.breakdown[0].points} {terms})."
        )
    if unit.dice is not None:
        for colour, label in DICE_LABELS.items():
            printed, computed = getattr(unit.dice, colour), getattr(costed.derived.dice, colour)
            if printed != computed:
                lines.append(f"Dés {label} : imprimé {printed}, règles de création {computed}.")
    lines += [f"Limite : {issue.message}" for issue in costed.issues if issue.severity == "error"]
    return lines


DICE_LABELS = {"red": "rouges", "blue": "bleus", "white": "blancs", "yellow": "jaunes"}


# The names the rest of the package knows them by (the API shows the prefixed ones).

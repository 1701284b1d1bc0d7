"""Infinity N2 army building (L76-L85, with L14, L20, L130): totals and list-level checks.

Line numbers (Lnn) refer to shared/rules/infinity-n2.fr.txt; decisions are in
docs/rules-notes.md ("Infinity").
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from app.systems.base import Issue, error, warning
from app.systems.infinity.engine import (
    InfinityAvaLine,
    InfinityGroupOrders,
    duplicate_option_issues,
    swc_text,
)
from app.systems.infinity.models import (
    AD_COMBAT_JUMP,
    InfinityEntry,
    InfinityTrooper,
    InfinityTrooperOption,
    swc_fraction,
)


@dataclass(frozen=True)
class Placed:
    """A roster entry whose trooper and option were found."""

    index: int
    entry: InfinityEntry
    trooper: InfinityTrooper
    option: InfinityTrooperOption

    @property
    def count(self) -> int:
        return self.entry.count

    @property
    def regular(self) -> bool:
        return self.trooper.orders == "regular"

    @property
    def name(self) -> str:
        return self.entry.name or self.trooper.name


def swc_used(placed: Sequence[Placed]) -> Fraction:
    """Every option's SWC, the Lieutenant's included (L83), summed exactly."""
    return sum((swc_fraction(p.option.swc) * p.count for p in placed), Fraction(0))


def group_orders(placed: Sequence[Placed]) -> list[InfinityGroupOrders]:
    """Each combat group's own orders (L85), in increasing group order."""
    groups: dict[int, InfinityGroupOrders] = {}
    for p in sorted(placed, key=lambda p: p.entry.group):
        group = groups.setdefault(
            p.entry.group,
            InfinityGroupOrders(
                group=p.entry.group,
                troopers=0,
                pool=0,
                pool_at_deployment=0,
                irregular_orders=0,
                impetuous_orders=0,
            ),
        )
        group.troopers += p.count
        if p.regular:
            group.pool += p.count
            # L20: troopers not deployed « n'ajoutent pas leur Ordre à la Réserve d'Ordres ».
            if not p.entry.reserve:
                group.pool_at_deployment += p.count
        else:
            # L14: an irregular « n'ajoute pas ses ordres à la Réserve d'Ordres ».
            group.irregular_orders += p.count
        if p.trooper.impetuous:
            # L45: « réaliser un Ordre Impétueux gratuitement », on top of its own order.
            group.impetuous_orders += p.count
    return list(groups.values())


def availability(placed: Sequence[Placed]) -> list[InfinityAvaLine]:
    """Troopers of each type over the whole list, all options and groups (L76)."""
    lines: dict[str, InfinityAvaLine] = {}
    for p in placed:
        line = lines.setdefault(
            p.trooper.id,
            InfinityAvaLine(unit=p.trooper.id, name=p.trooper.name, troopers=0, ava=p.trooper.ava),
        )
        line.troopers += p.count
    return list(lines.values())


def swc_issues(
    used: Fraction, available: int, points_limit: int | None, points: int
) -> list[Issue]:
    if used <= available:
        return []
    basis = (
        f"une partie de {points_limit} points"
        if points_limit is not None
        else f"une armée de {points} points sans format de partie"
    )
    return [
        error(
            "swc_over_limit",
            f"{swc_text(used)} SWC dépensés pour {available} disponibles dans {basis} "
            f"(1 SWC par tranche de 50 points, L81) : {swc_text(used - available)} de trop.",
        )
    ]


def lieutenant_issues(placed: Sequence[Placed]) -> list[Issue]:
    """L83: « vous devez en désigner une comme Lieutenant », one and only one."""
    lieutenants = sum(p.count for p in placed if p.option.lieutenant)
    if lieutenants == 0:
        return [
            error(
                "no_lieutenant",
                "Aucun Lieutenant : choisissez l'option Lieutenant d'une figurine (L83).",
            )
        ]
    if lieutenants > 1:
        names = ", ".join(f"{p.name} ×{p.count}" for p in placed if p.option.lieutenant)
        return [
            error(
                "several_lieutenants",
                f"{lieutenants} Lieutenants ({names}) : l'armée n'en a qu'un (L83).",
            )
        ]
    return []


def irregular_lieutenant_issues(placed: Sequence[Placed]) -> dict[int, list[Issue]]:
    """L14: an irregular Lieutenant only if every trooper under his command is irregular."""
    regulars = sum(p.count for p in placed if p.regular)
    if not regulars:
        return {}
    return {
        p.index: [
            error(
                "irregular_lieutenant",
                f"{p.name} est irrégulier : il ne peut être Lieutenant que si toutes les "
                f"troupes sont irrégulières (L14) ; {regulars} figurine(s) régulière(s).",
                f"entries[{p.index}].option",
            )
        ]
        for p in placed
        if p.option.lieutenant and not p.regular
    }


def reserve_issues(p: Placed) -> list[Issue]:
    """L20: only AD: Combat Jump troopers stay off the table, and never the Lieutenant."""
    if not p.entry.reserve:
        return []
    issues = []
    if AD_COMBAT_JUMP not in p.trooper.skills:
        issues.append(
            error(
                "reserve_without_airborne",
                f"{p.name} n'a pas AD : Combat Jump : il est déployé au début de la partie (L20).",
                f"entries[{p.index}].reserve",
            )
        )
    if p.option.lieutenant:
        issues.append(
            error(
                "lieutenant_in_reserve",
                "Le Lieutenant doit être déployé au début de la partie, même avec "
                "AD : Combat Jump (L20, L84).",
                f"entries[{p.index}].reserve",
            )
        )
    return issues


def ava_issues(lines: Sequence[InfinityAvaLine], enforced: bool) -> list[Issue]:
    """L76: AVA caps the troopers of one type; Total (null) caps nothing (L79)."""
    if not enforced:
        return []
    return [
        error(
            "ava_exceeded",
            f"{line.name} : {line.troopers} figurines pour une Disponibilité (AVA) de "
            f"{line.ava} (L76).",
        )
        for line in lines
        if line.ava is not None and line.troopers > line.ava
    ]


def group_issues(groups: Sequence[InfinityGroupOrders], max_group_size: int) -> list[Issue]:
    """L85: a combat group « ne doit jamais dépasser 10 » troopers."""
    return [
        error(
            "combat_group_too_large",
            f"Groupe de combat {group.group} : {group.troopers} figurines, {max_group_size} au "
            "plus ; répartissez-les en plusieurs groupes (L85).",
        )
        for group in groups
        if group.troopers > max_group_size
    ]


def medic_issues(medics: int) -> list[Issue]:
    """L130: without Docteur or Paramédical, an unconscious trooper dies at once."""
    if medics:
        return []
    return [
        warning(
            "no_medic",
            "Ni Docteur ni Paramédical : vos figurines inconscientes seront directement "
            "retirées du jeu (L130).",
        )
    ]


def duplicate_unit_issues(units: Sequence[InfinityTrooper]) -> list[Issue]:
    """Ids a list repeats: two troopers of `extras.units`, two options of one of them. The
    first one counts; JSON Schema cannot say "unique by id", so these are issues rather
    than refusals (decision 15)."""
    issues = []
    seen: set[str] = set()
    for index, trooper in enumerate(units):
        where = f"extras.units[{index}]"
        if trooper.id in seen:
            issues.append(
                error(
                    "duplicate_unit",
                    f"Deux soldats de la liste ont l'identifiant « {trooper.id} » : seul le "
                    "premier compte.",
                    f"{where}.id",
                )
            )
        seen.add(trooper.id)
        issues += duplicate_option_issues(trooper, where)
    return issues

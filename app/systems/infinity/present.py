"""What the Infinity API and pages show: the catalogue output (every item with id, name and
kind), and a validated list as summary lines, budgets, totals and notes for the share page
and the exports ("GROUPE 1 — ...", each trooper with its option, SWC and points, then
"SWC 5.5/6 | points 300/300")."""

from fractions import Fraction
from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.systems.base import Badge, Budget, SummaryLine, Total, points_budget
from app.systems.catalogued import CatalogueOut, DescribedOut, ExampleOut, ItemOut, entry_line
from app.systems.infinity.catalogue import Catalogue
from app.systems.infinity.engine import InfinityGroupOrders
from app.systems.infinity.models import InfinityRoster, InfinityTrooper, InfinityTrooperOption
from app.systems.infinity.roster import (
    InfinityEntryResult,
    InfinityResult,
    resolve_unit,
    trooper_key,
)
from app.systems.memo import EntryMemo, LineCopies, entry_keys, json_key

ATTRIBUTES = ("MOV", "CC", "TR", "PH", "VOL", "BL", "B")

# Forum-safe colours of the badges (BBCode), readable on a white page.
COLOURS = {
    "swc": "#1f5fa8",
    "lieutenant": "#7d6608",
    "irregular": "#5f6b7a",
    "impetuous": "#b3261e",
    "reserve": "#1e7b46",
}


class InfinityRulesOut(BaseModel):
    """The numbers of army building (L81, L85, L117, L141)."""

    points_per_swc: int
    max_group_size: int
    mines_per_trooper: int
    repeaters_per_trooper: int
    source: str


class InfinityFactionOut(ItemOut):
    """A faction of the catalogue: Caserne's own invention, never Corvus Belli's."""

    kind: Literal["faction"] = "faction"
    units: list[str]
    invented: bool = Field(description="True: invented by Caserne, no Corvus Belli profile.")
    note: str
    source: str


class InfinityTermOut(DescribedOut):
    """A skill or a piece of equipment of the glossary, with its line."""

    kind: Literal["competence", "equipement"]


class InfinityUnitOut(InfinityTrooper):
    """A catalogue trooper: the shape `extras.units` and the cost body take, plus its kind
    and its faction."""

    kind: Literal["soldat"] = "soldat"
    faction: str


class InfinityExampleOut(ExampleOut[InfinityRoster]):
    """A list written by Caserne, with the error and warning codes it must give."""

    expected_issue_codes: list[str]
    expected_warning_codes: list[str]
    note: str


class InfinityCatalogue(CatalogueOut):
    system: Literal["infinity"] = "infinity"
    rules: InfinityRulesOut
    factions: list[InfinityFactionOut]
    skills: list[InfinityTermOut]
    equipment: list[InfinityTermOut]
    units: list[InfinityUnitOut]
    examples: list[InfinityExampleOut]


def unit_definition(unit: InfinityTrooper) -> dict[str, Any]:
    """A trooper as `extras.units` and the cost body take it (no faction, no kind)."""
    return InfinityTrooper.model_validate(
        unit.model_dump(include=set(InfinityTrooper.model_fields))
    ).model_dump(mode="json")


def catalogue_output(
    data: Catalogue, examples: list[InfinityExampleOut], header: dict[str, Any]
) -> InfinityCatalogue:
    return InfinityCatalogue(
        **header,
        rules=InfinityRulesOut(**data.rules.model_dump()),
        factions=[
            InfinityFactionOut(
                id=faction.id,
                name=faction.name,
                invented=True,  # Caserne ships no Corvus Belli profile (issue 8)
                note=faction.note,
                source=faction.source,
                units=[unit.id for unit in data.units if unit.faction == faction.id],
            )
            for faction in data.factions
        ],
        skills=[InfinityTermOut(**s.model_dump(), kind="competence") for s in data.skills],
        equipment=[InfinityTermOut(**e.model_dump(), kind="equipement") for e in data.equipment],
        units=[
            InfinityUnitOut(**unit_definition(unit), faction=unit.faction) for unit in data.units
        ],
        examples=examples,
    )


# --- numbers as players write them ------------------------------------------------------


def swc_figure(value: float | Fraction) -> str:
    """SWC as the budgets line writes it ("SWC 5.5/6"): 1, 0.5, 1.5."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def counted(number: int, singular: str, plural: str | None = None) -> str:
    return f"{number} {singular if number <= 1 else (plural or singular + 's')}"


def profile_text(trooper: InfinityTrooper) -> str:
    """ "MOV 10-5 CC 12 TR 11 PH 10 VOL 12 BL 1 B 1", the books' line."""
    profile = trooper.profile
    mov = "-".join(str(value) for value in profile.MOV)
    rest = " ".join(f"{name} {getattr(profile, name)}" for name in ATTRIBUTES[1:])
    return f"MOV {mov} {rest}"


def ava_text(ava: int | None) -> str:
    return "Total" if ava is None else str(ava)


def option_label(trooper_name: str, option: InfinityTrooperOption | None, option_id: str) -> str:
    """ "Garde de Brumeval (Mitrailleuse lourde)": the trooper and its option."""
    return f"{trooper_name} ({option.name if option is not None else option_id})"


def _beyond_pool(group: InfinityGroupOrders) -> tuple[str | None, list[str]]:
    """What a group's pool does not say: its size at deployment when troopers wait in
    reserve (L20), and the orders outside it, irregular (L14) and impetuous (L45)."""
    deployment = None
    if group.pool_at_deployment != group.pool:
        deployment = f"{group.pool_at_deployment} au déploiement"
    outside = []
    if group.irregular_orders:
        outside.append(counted(group.irregular_orders, "irrégulier"))
    if group.impetuous_orders:
        outside.append(counted(group.impetuous_orders, "impétueux", "impétueux"))
    return deployment, outside


def group_orders_text(group: InfinityGroupOrders) -> str:
    """ "8 ordres (6 au déploiement), 2 irréguliers, 1 impétueux" (L14, L20, L45, L85)."""
    deployment, outside = _beyond_pool(group)
    text = counted(group.pool, "ordre") + (f" ({deployment})" if deployment else "")
    return text + "".join(f", {more}" for more in outside)


def group_total_label(group: InfinityGroupOrders) -> str:
    """Beside its pool (the total's value): "ordres au groupe 2, 3 au déploiement, + 4
    irréguliers, + 2 impétueux"."""
    deployment, outside = _beyond_pool(group)
    label = f"{'ordre' if group.pool <= 1 else 'ordres'} au groupe {group.group}"
    label += f", {deployment}" if deployment else ""
    return label + "".join(f", + {more}" for more in outside)


def group_heading(number: int, group: InfinityGroupOrders | None) -> str:
    """The heading players post above a combat group: "GROUPE 1 — 10 figurines · 8 ordres"."""
    if group is None:  # only entries that did not resolve: no trooper, no order
        return f"GROUPE {number}"
    return f"GROUPE {number} — {counted(group.troopers, 'figurine')} · {group_orders_text(group)}"


# --- the summary of a validated list ----------------------------------------------------


class Presenter:
    """Summary lines, budgets, totals and notes of a validated list."""

    def __init__(self, data: Catalogue) -> None:
        self.data = data
        self.names = {item.id: item.name for item in [*data.skills, *data.equipment]}

    def skill_names(self, trooper: InfinityTrooper) -> str:
        return ", ".join(self.names.get(skill, skill) for skill in trooper.skills)

    def lines(
        self,
        roster: InfinityRoster,
        result: InfinityResult,
        memo: "EntryMemo[SummaryLine] | None" = None,
        copies: LineCopies | None = None,
    ) -> list[SummaryLine]:
        """One line per entry; `memo`: a memory of lines, each a function of its entry, the
        entry's result and its trooper, and of its group's heading (app/systems/memo.py);
        `copies`: a remembered line under another heading, the same copy each time."""
        groups = {group.group: group for group in result.derived.groups}
        headings = {
            number: group_heading(number, groups.get(number))
            for number in {entry.group for entry in roster.entries}
        }
        lines = []
        keys = entry_keys(roster.entries) if memo is not None else []
        for index, (entry, entry_result) in enumerate(
            zip(roster.entries, result.entries, strict=True)
        ):
            trooper = resolve_unit(self.data, roster, entry.unit)
            heading = headings[entry.group]
            make = partial(self.line, entry, entry_result, trooper, heading)
            if memo is None:
                lines.append(make())
                continue
            # Remembered without its group's heading, which counts the group's figures
            # (one count change would otherwise make every line of the group anew).
            key = (
                keys[index],
                json_key(entry_result),
                trooper_key(self.data, trooper),
            )
            line = memo(key, make)
            if line.group != heading:
                line = (
                    copies(line, "group", heading)
                    if copies is not None
                    else line.model_copy(update={"group": heading})
                )
            lines.append(line)
        return lines

    def line(
        self,
        entry: Any,
        entry_result: InfinityEntryResult,
        trooper: InfinityTrooper | None,
        heading: str,
    ) -> SummaryLine:
        option = trooper.option(entry.option) if trooper is not None else None
        derived = entry_result.derived
        badges = []
        if option is not None:
            swc = swc_figure(option.swc)
            if entry.count > 1 and option.swc:
                swc += f" chacun, {swc_figure(Fraction(option.swc) * entry.count)}"
            badges.append(Badge(text=f"SWC {swc}", kind="swc", colour=COLOURS["swc"]))
        if derived.lieutenant:
            badges.append(Badge(text="Lieutenant", kind="lieutenant", colour=COLOURS["lieutenant"]))
        if derived.orders == "irregular":
            badges.append(Badge(text="Irrégulier", kind="irregular", colour=COLOURS["irregular"]))
        if derived.impetuous:
            badges.append(Badge(text="Impétueux", kind="impetuous", colour=COLOURS["impetuous"]))
        if entry.reserve:
            badges.append(Badge(text="En réserve (AD)", kind="reserve", colour=COLOURS["reserve"]))
        details = []
        if trooper is not None:
            details.append(profile_text(trooper))
            if trooper.skills:
                details.append(self.skill_names(trooper))
        if option is not None and option.equipment:
            details.append(", ".join(self.names.get(e, e) for e in option.equipment))
        name = option_label(entry_result.name, option, entry.option)
        return entry_line(entry_result, name=name, group=heading, badges=badges, details=details)

    def budgets(self, result: InfinityResult) -> list[Budget]:
        swc = result.derived.swc
        return [
            Budget(id="swc", label="SWC", used=swc.used, limit=swc.available),
            points_budget(result.points, result.points_limit),
        ]

    def totals(self, result: InfinityResult) -> list[Total]:
        derived = result.derived
        totals = [Total(label="figurines", value=str(derived.troopers))]
        totals += [
            Total(label=group_total_label(group), value=str(group.pool)) for group in derived.groups
        ]
        return totals

    def notes(self, roster: InfinityRoster, result: InfinityResult) -> list[str]:
        derived = result.derived
        notes = []
        if derived.lieutenant is not None:
            for entry, entry_result in zip(roster.entries, result.entries, strict=True):
                if entry_result.counted and entry_result.derived.lieutenant:
                    trooper = resolve_unit(self.data, roster, entry.unit)
                    option = trooper.option(entry.option) if trooper is not None else None
                    name = option_label(entry_result.name, option, entry.option)
                    notes.append(f"Lieutenant : {name}, groupe {entry.group}.")
        deployables = []
        if derived.mines:
            deployables.append(counted(derived.mines, "mine"))
        if derived.repeaters:
            deployables.append(
                counted(derived.repeaters, "répétiteur déployant", "répétiteurs déployants")
            )
        if deployables:
            notes.append(f"Déployables : {', '.join(deployables)}.")
        if not derived.ava_enforced:
            notes.append("Partie d'initiation : la Disponibilité (AVA) n'est pas appliquée (L78).")
        own = {unit.id for unit in roster.extras.units}
        used = {entry.unit for entry in roster.entries if entry.unit not in own}
        for faction in self.data.factions:
            if any(
                (unit := self.data.unit(unit_id)) is not None and unit.faction == faction.id
                for unit_id in used
            ):
                notes.append(f"{faction.name} : {faction.note}")
        return notes

"""How an Infinity list is read back from its export or from typed lines (`ImportTraits`,
app/systems/import_traits.py): « Garde de Brumeval (Mitrailleuse lourde) » names a trooper
and its option, « GROUPE 2 — … » the combat group, « En réserve (AD) » the reserve; a
trooper the catalogue lacks is rebuilt in `extras.units` from its printed profile, skills,
equipment, orders, and each printed option's points, SWC and Lieutenant."""

import re
from typing import Any

from app.systems import import_traits as kit
from app.systems.base import AnySystem
from app.systems.entry_reading import origin_lost
from app.systems.infinity import InfinitySystem
from app.systems.infinity.present import option_label

GROUP = re.compile(r"^groupe\s*(\d{1,3})\b")
PROFILE = re.compile(r"^MOV (\d+)-(\d+) CC (\d+) TR (\d+) PH (\d+) VOL (\d+) BL (\d+) B (\d+)$")
SWC = re.compile(r"^SWC (\d+(?:\.5)?)")
BADGES = {"lieutenant", "irregulier", "impetueux", "en reserve (ad)"}
RESERVE = "en reserve (ad)"
INITIATION = "Partie d'initiation"
OWN = (
    "soldats recréés d'après l'export ({names}) : leur identifiant, leur Disponibilité "
    "(AVA, mise à « Total ») et leurs options absentes de la liste ne sont pas imprimés"
)


def names(system: AnySystem) -> list[kit.Named]:
    """Each trooper with each option (« Garde de Brumeval (Mitrailleuse lourde) »), and each
    trooper by its name alone, with its first option that is not the Lieutenant's."""
    out = []
    for unit in kit.engine_of(system, InfinitySystem).data.units:
        plain = next((o for o in unit.options if not o.lieutenant), unit.options[0])
        out.append(kit.Named(unit.id, unit.name, {"unit": unit.id, "option": plain.id}))
        out += [
            kit.Named(
                f"{unit.id}/{option.id}",
                option_label(unit.name, option, option.id),
                {"unit": unit.id, "option": option.id},
            )
            for option in unit.options
        ]
    return out


def tokens(printed: kit.PrintedEntry) -> list[str]:
    return [t.strip() for d in printed.details for t in re.split(r" — | - |, ", d) if t.strip()]


def placement(printed: kit.PrintedEntry) -> dict[str, Any]:
    """The combat group (its heading, 1 without one) and the reserve (its badge)."""
    found = GROUP.match(kit.fold(printed.group or ""))
    group = int(found[1]) if found and 1 <= int(found[1]) <= 100 else 1
    return {"group": group, "reserve": RESERVE in {kit.fold(t) for t in tokens(printed)}}


def catalogue_entry(
    system: AnySystem, printed: kit.PrintedEntry, more: dict[str, Any]
) -> dict[str, Any] | None:
    """A catalogue trooper and option printed as the catalogue prints them (renamed or not)."""
    index = kit.index_of(system)
    head, trooper = kit.split_profile(printed.title)
    tries: list[tuple[str, str | None]] = [(printed.title, None)]
    if trooper is not None:
        renamed, option = kit.split_profile(head)
        if option is not None:
            tries.append((f"{trooper} ({option})", renamed))
    for title, name in tries:
        found = index.find(title)
        if found is None or found.how != "exact" or "/" not in found.named.id:
            continue
        entry = kit.entry_of(found.named, printed.count, **more, **({"name": name} if name else {}))
        if kit.prints_as(system, entry, printed):
            return entry
    return None


class Troopers:
    """The troopers rebuilt from the export, by name and printing; one option each per
    printed option name."""

    def __init__(self, system: AnySystem) -> None:
        data = kit.engine_of(system, InfinitySystem).data
        self.skills = {kit.fold(item.name): item.id for item in data.skills}
        self.equipment = {kit.fold(item.name): item.id for item in data.equipment}
        self.taken = {unit.id for unit in data.units}
        self.units: list[dict[str, Any]] = []

    def entry(self, printed: kit.PrintedEntry, more: dict[str, Any]) -> dict[str, Any] | None:
        head, last = kit.split_profile(printed.title)
        if last is None:
            return None
        renamed, option_name = kit.split_profile(head)
        name: str | None = renamed
        if option_name is None:  # « Marine (Fusil) »: not renamed
            name, option_name, trooper_name = None, last, head
        else:  # « Bob (Fusil) (Marine) »
            trooper_name = last
        built = self.trooper(printed, trooper_name)
        if built is None:
            return None
        option = self.option(built, printed, option_name)
        entry = {"unit": built["id"], "option": option, "count": printed.count, **more}
        return {**entry, "name": name[:80]} if name else entry

    def trooper(self, printed: kit.PrintedEntry, name: str) -> dict[str, Any] | None:
        parts = [p.strip() for d in printed.details for p in re.split(r" — | - ", d) if p.strip()]
        found = [(i, match) for i, part in enumerate(parts) if (match := PROFILE.match(part))]
        if not found:
            return None
        at, match = found[0]
        values = [int(value) for value in match.groups()]
        flags = {kit.fold(t) for t in tokens(printed)}
        lists = [p for p in parts[at + 1 :] if not _badges(p)]
        skills, equipment = [*lists, "", ""][:2]
        if (
            skills
            and not equipment
            and all(kit.fold(e) in self.equipment for e in skills.split(", "))
        ):
            skills, equipment = "", skills
        profile: dict[str, Any] = {"MOV": values[:2]}
        profile.update(zip(("CC", "TR", "PH", "VOL", "BL", "B"), values[2:], strict=True))
        trooper = {
            "name": name[:80],
            "orders": "irregular" if "irregulier" in flags else "regular",
            "impetuous": "impetueux" in flags,
            "ava": None,
            "profile": profile,
            "skills": [self.skills.get(kit.fold(s), s[:80]) for s in skills.split(", ") if s][:30],
        }
        for unit in self.units:
            if {k: unit[k] for k in trooper} == trooper:
                return unit
        made = {"id": self.new_id(name), **trooper, "options": [], "_equipment": equipment}
        self.units.append(made)
        return made

    def option(self, trooper: dict[str, Any], printed: kit.PrintedEntry, name: str) -> str:
        for option in trooper["options"]:
            if option["name"] == name[:80]:
                return str(option["id"])
        swc = next((float(f[1]) for t in tokens(printed) if (f := SWC.match(t))), 0.0)
        equipment = trooper["_equipment"]
        option_id = snake(name, {o["id"] for o in trooper["options"]})
        trooper["options"].append(
            {
                "id": option_id,
                "name": name[:80] or "Option",
                "points": min(max(printed.points or 0, 0), 10_000),
                "swc": swc if swc <= 20 else 0.0,
                "lieutenant": "lieutenant" in {kit.fold(t) for t in tokens(printed)},
                "equipment": [
                    self.equipment.get(kit.fold(e), e[:80]) for e in equipment.split(", ")
                ]
                if equipment
                else [],
            }
        )
        return option_id

    def new_id(self, name: str) -> str:
        made = snake(name, self.taken)
        self.taken.add(made)
        return made

    def document(self) -> list[dict[str, Any]]:
        return [{k: v for k, v in unit.items() if k != "_equipment"} for unit in self.units]


def _badges(part: str) -> bool:
    """A part that holds badges only (SWC, Lieutenant, orders, reserve)."""
    return all(
        SWC.match(t) or t.replace(".", "", 1).isdigit() or kit.fold(t) in BADGES
        for t in part.split(", ")
    )


def snake(name: str, taken: set[str]) -> str:
    """An ASCII snake_case id from a name, unique among `taken`."""
    base = "_".join(re.findall(r"[a-z0-9]+", kit.fold(name)))[:50] or "soldat"
    made, number = base, 2
    while made in taken:
        made, number = f"{base}_{number}", number + 1
    return made


def read(system: AnySystem, printed: kit.PrintedList) -> kit.Reading:
    index = kit.index_of(system)
    troopers = Troopers(system)
    reading = kit.Reading(entries=[], extras={}, reads=[])
    for entry in printed.entries:
        more = placement(entry)
        made, said = None, kit.Read("matched", lost=origin_lost(entry))
        if entry.typed or entry.chosen is not None:
            found = kit.match_title(index, entry)
            if found is not None:
                made, said = kit.entry_of(found.named, entry.count, **more), kit.Read("matched")
                said.note = kit.match_note(found)
        else:
            made = catalogue_entry(system, entry, more)
            if made is None:
                made, said.status = troopers.entry(entry, more), "custom"
        if made is None:
            reading.reads.append(kit.unknown())
            continue
        said.entry = len(reading.entries)
        reading.entries.append(made)
        reading.reads.append(said)
    initiation = [note for note in printed.notes if note.text.startswith(INITIATION)]
    for note in initiation:
        reading.used[note.line] = "partie d'initiation : AVA non appliquée"
    reading.extras = {"units": troopers.document(), "ava": not initiation}
    if troopers.units:
        reading.lost.append(OWN.format(names=", ".join(u["name"] for u in troopers.units)))
    return reading


IMPORTS = kit.ImportTraits(read=read, names=names)

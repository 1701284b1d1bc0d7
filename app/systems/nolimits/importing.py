"""How a No Limits list is read back from its export or from typed lines (`ImportTraits`,
app/systems/import_traits.py). An export prints each entry under its heading (« 2.
Première section »): its troopers' line first, with the entry's badges (category, general,
banner, placement), then its leader's (« Sergent (chef d'unité) ») and its specialists'
(« … (spécialiste) »). A formation of the catalogue is known by its name and its
troopers' printed profile; any other unit is rebuilt from its printing
(app/systems/nolimits/printed.py)."""

import re
from typing import Any

from app.systems import import_traits as kit
from app.systems.base import AnySystem
from app.systems.entry_reading import origin_lost
from app.systems.nolimits import NolimitsSystem
from app.systems.nolimits.pricing import printed_definition
from app.systems.nolimits.printed import Reader, Rebuilt, parts_of, same_unit
from app.systems.nolimits.summary import PLACEMENTS, ROLES

HEADING = re.compile(r"^\d{1,3}\. (.*)$")
LEADER, SPECIALIST = ROLES["chef"], ROLES["specialiste"]
GENERAL, BANNER = "Général d'armée", "Bannière d'armée"
ARMY = "Armée : "
CUSTOM_TROOPERS, CUSTOM_LEADER, CUSTOM_SPECIALIST = "Troupe", "Chef d'unité", "Spécialiste"


def names(system: AnySystem) -> list[kit.Named]:
    """Every formation by its name, and by its troopers' name when no other has it
    (« 6 Fantassins » is a Section de fantassins)."""
    data = kit.engine_of(system, NolimitsSystem).data
    troopers = [data.profile(unit.troopers.profile).name for unit in data.units]
    return [
        kit.Named(
            unit.id,
            unit.name,
            {"unit": unit.id},
            (name,) if troopers.count(name) == 1 and name != unit.name else (),
        )
        for unit, name in zip(data.units, troopers, strict=True)
    ]


class Entries:
    """The entries of one list, read group by group."""

    def __init__(self, system: AnySystem) -> None:
        self.system = kit.engine_of(system, NolimitsSystem)
        self.data = self.system.data
        self.reader = Reader(self.data)
        self.categories = {kit.fold(c.name): c.id for c in self.data.categories}
        self.placements = {kit.fold(name): key for key, name in PLACEMENTS.items()}

    def printed(self, profile_id: str) -> dict[str, Any]:
        return printed_definition(self.data.profile(profile_id))

    def troopers(self, printed: kit.PrintedEntry) -> tuple[dict[str, Any], kit.Read] | None:
        """The entry a troopers' line makes (its leader and specialists come after)."""
        heading = HEADING.match(printed.group or "")
        name = heading[1] if heading else printed.title
        rebuilt = self.reader.unit(printed.details, printed.house_rules)
        if rebuilt is None:
            return None
        entry: dict[str, Any] = {"count": printed.count, **self.badges(printed)}
        for unit in self.data.units:
            profile = self.data.profile(unit.troopers.profile)
            # A renamed formation prints « Fantassin (Section de fantassins) » (_with_profiles).
            renamed = name != unit.name and profile.name != unit.name
            title = f"{profile.name} ({unit.name})" if renamed else profile.name
            model = self.system.unit_model
            if printed.title == title and same_unit(model, rebuilt.unit, self.printed(profile.id)):
                entry.pop("category", None)
                named = {"name": name[:80]} if name != unit.name else {}
                return {"unit": unit.id, **named, **entry}, kit.Read("matched")
        custom = {"custom": rebuilt.unit, **entry}
        if name != CUSTOM_TROOPERS:
            custom["name"] = name[:80]
        return self.with_passengers(custom, printed, rebuilt), kit.Read("custom", lost=rebuilt.lost)

    def badges(self, printed: kit.PrintedEntry) -> dict[str, Any]:
        tokens = {kit.fold(t) for p in parts_of(printed.details) for t in p.split(", ")}
        out: dict[str, Any] = {}
        category = next((self.categories[t] for t in tokens if t in self.categories), None)
        if category is not None:
            out["category"] = category
        placement = next((self.placements[t] for t in tokens if t in self.placements), None)
        if placement is not None:
            out["placement"] = placement
        out["general"] = kit.fold(GENERAL) in tokens
        out["battle_standard"] = kit.fold(BANNER) in tokens
        return out

    def with_passengers(
        self, entry: dict[str, Any], printed: kit.PrintedEntry, rebuilt: Rebuilt
    ) -> dict[str, Any]:
        """A vehicle's passengers, from the printed cost of one model (the only place they
        show: each is priced, note 1)."""
        vehicle = rebuilt.unit.get("vehicle")
        if vehicle is None or printed.points is None:
            return entry
        try:
            cost = self.system.cost(self.system.unit_model.model_validate(rebuilt.unit)).points
        except ValueError:
            return entry
        each = self.data.prices.vehicle.passenger.points
        extra = printed.points - cost
        if each > 0 and extra > 0 and extra % each == 0 and extra // each <= 50:
            vehicle["passengers"] = extra // each
        return entry

    def leader(self, printed: kit.PrintedEntry, entry: dict[str, Any]) -> kit.Read:
        if "leader" in entry:  # a unit has one leader (L91-93): a second line is unknown
            return kit.unknown()
        name = printed.title.removesuffix(LEADER)
        rebuilt = self.reader.unit(printed.details, printed.house_rules)
        if rebuilt is None:
            return kit.unknown()
        for profile in self.data.profiles:
            if profile.name == name and same_unit(
                self.system.unit_model, rebuilt.unit, self.printed(profile.id)
            ):
                entry["leader"] = profile.id
                return kit.Read("matched")
        entry["leader"] = rebuilt.unit
        return kit.Read("custom", lost=rebuilt.lost)

    def specialist(self, printed: kit.PrintedEntry, entry: dict[str, Any]) -> kit.Read:
        name = printed.title.removesuffix(SPECIALIST)
        rebuilt = self.reader.unit(printed.details, printed.house_rules)
        if rebuilt is None:
            return kit.unknown()
        troopers = entry.get("custom") or self.printed(
            self.data.unit(entry["unit"]).troopers.profile
        )
        own = rebuilt.unit["abilities"]
        same = self.system.unit_model.model_validate({**troopers, "weapons": []}).abilities
        specialist = {
            "name": None if name == CUSTOM_SPECIALIST else name[:60],
            "count": min(printed.count, 20),
            "weapons": rebuilt.unit["weapons"],
            "abilities": None if own == [_plain(a) for a in same] else own,
        }
        entry.setdefault("specialists", []).append(specialist)
        return kit.Read("custom" if "custom" in entry else "matched", lost=rebuilt.lost)


def _plain(value: Any) -> Any:
    return value if isinstance(value, str) else value.model_dump(mode="json")


def read(system: AnySystem, printed: kit.PrintedList) -> kit.Reading:
    index = kit.index_of(system)
    entries = Entries(system)
    reading = kit.Reading(entries=[], extras={}, reads=[])
    current: dict[str, Any] | None = None
    for line in printed.entries:
        said: kit.Read
        follows = not line.typed and line.chosen is None
        if current is not None and follows and line.title.endswith(LEADER):
            said = entries.leader(line, current)
        elif current is not None and follows and line.title.endswith(SPECIALIST):
            said = entries.specialist(line, current)
        else:
            made = None
            if line.typed or line.chosen is not None:
                found = kit.match_title(index, line)
                if found is not None:
                    made = (
                        kit.entry_of(found.named, line.count),
                        kit.Read("matched", note=kit.match_note(found)),
                    )
            else:
                made = entries.troopers(line)
            if made is None:
                current = None
                reading.reads.append(kit.unknown())
                continue
            current, said = made
            reading.entries.append(current)
            said.lost = [*origin_lost(line), *said.lost]
        said.entry = len(reading.entries) - 1
        reading.reads.append(said)
    for note in printed.notes:
        if note.text.startswith(ARMY):
            reading.extras = {"army": note.text.removeprefix(ARMY)[:80]}
            reading.used[note.line] = "armée"
    return reading


IMPORTS = kit.ImportTraits(read=read, names=names)

"""A No Limits unit read back from its printing (app/systems/nolimits/summary.py writes it):
« AC 9 CT 5 … SV 2 — Taille grande — Fusil d'assaut (CU 4, 10/+1 20/+0 30/−1, FO 6, MA −2,
CdA 1, DG 1, Baïonnette) — Habiletés : … — Non chiffré : … », with the house rules printed
under it (« Règle maison : Lame : Tranchante (3 pts) »).

What the printing does not carry: a vehicle's type, crew and passengers (a vehicle is known
by its weapons without CU; its passengers by the printed cost), a weapon's `type`, a size in
millimetres (its category is printed), a house rule's text. `Rebuilt.lost` says which."""

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.systems.import_traits import fold, split_profile
from app.systems.nolimits.catalogue import Catalogue, Weapon
from app.systems.nolimits.models import CHARACTERISTICS

PROFILE = re.compile(r"^" + r" ".join(rf"{code} (\d{{1,3}})" for code in CHARACTERISTICS) + r"$")
SIZES = {"petite": "petite", "moyenne": "moyenne", "grande": "grande", "très grande": "tres_grande"}
SIZE = re.compile(r"^Taille (petite|moyenne|grande|très grande)$")
ABILITIES = "Habiletés : "
UNPRICED = "Non chiffré : "
BAND = r"\d{1,3}/[+−-]\d{1,2}"
BANDS = re.compile(rf"^{BAND}(?: {BAND}){{0,2}}$")
MELEE_FO = re.compile(r"^FO (\d{1,3}) \(bonus \+(\d{1,2})\)$")
STAT = re.compile(r"^(CU|FO|CdA|DG|MPA|MA) ([+−-]?\d{1,3})$")
HOUSE = re.compile(r"^(.*) \((-?\d{1,4}) pts\)$")
VEHICLE_LOST = "véhicule : son type, son équipage et ses passagers ne sont pas imprimés"


def number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


@dataclass
class Rebuilt:
    """A unit definition read from its printing, and what the printing could not carry."""

    unit: dict[str, Any]
    lost: list[str] = field(default_factory=list)


def is_weapon(part: str) -> bool:
    _name, inner = split_profile(part)
    return inner is not None and " DG " in f" {inner}" and "CdA " in inner


def parts_of(details: tuple[str, ...]) -> list[str]:
    return [p.strip() for d in details for p in re.split(r" — | - ", d) if p.strip()]


def house_rules(printed: tuple[str, ...]) -> dict[str, int]:
    """« Lame : Tranchante (3 pts) », « Sang-froid (4 pts) » → their points by name."""
    return {found[1]: int(found[2]) for rule in printed if (found := HOUSE.match(rule))}


class Reader:
    """Reads printed units against one catalogue."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.rules = {fold(rule.name): rule.id for rule in catalogue.weapon_rules}
        self.abilities = {fold(ability.name): ability.id for ability in catalogue.abilities}
        self.weapons: dict[str, list[Weapon]] = {}
        for known in catalogue.weapons:
            self.weapons.setdefault(fold(known.name), []).append(known)

    def weapon(self, text: str, house: dict[str, int], lost: list[str]) -> Any:
        """A weapon's printing as a catalogue id when it prints as one, else a definition."""
        name, inner = split_profile(text)
        built: dict[str, Any] = {"name": name[:60], "melee": False, "rules": []}
        for part in (inner or "").split(", "):
            part = part.strip()
            if part == "corps à corps":
                built["melee"] = True
            elif found := MELEE_FO.match(part):
                built["FO"] = int(found[2])
            elif BANDS.match(part):
                bands = [[number(x) for x in band.split("/")] for band in part.split(" ")]
                built.update(zip(("PC", "PI", "PL"), bands, strict=False))
            elif found := STAT.match(part):
                if found[1] != "MA":  # the armour modifier follows from FO (L172-176)
                    built[found[1]] = number(found[2])
            elif part:
                built["rules"].append(self.rule(name, part, house, lost))
        return self.known_weapon(built) or built

    def rule(self, weapon: str, name: str, house: dict[str, int], lost: list[str]) -> Any:
        """A weapon's rule: the catalogue's by its name, else a house rule at its printed
        price (« Règle maison : Lame : Tranchante (3 pts) »)."""
        known = self.rules.get(fold(name))
        if known is not None:
            return known
        points = house.get(f"{weapon} : {name}")
        if points is None:
            lost.append(f"règle « {name} » de « {weapon} » : son coût n'est pas imprimé")
        return {"name": name[:60], "points": points or 0}

    def known_weapon(self, built: dict[str, Any]) -> str | None:
        """The catalogue weapon `built` is, printed the same way."""
        for known in self.weapons.get(fold(built["name"]), []):
            prices = self.catalogue.prices.weapons.melee.use_cost
            cu = known.CU if known.CU is not None or not known.melee else prices.base + known.FO
            same = (
                known.melee == built["melee"]
                and [list(b) for b in (known.PC, known.PI, known.PL) if b]
                == [built[k] for k in ("PC", "PI", "PL") if k in built]
                and (known.CdA, known.FO, known.DG, known.MPA)
                == (built.get("CdA"), built.get("FO"), built.get("DG"), built.get("MPA", 0))
                and list(known.rules) == built["rules"]
                and (built.get("CU") is None or cu == built.get("CU"))
            )
            if same:
                return known.id
        return None

    def unit(self, details: tuple[str, ...], printed_rules: tuple[str, ...]) -> Rebuilt | None:
        """A unit from its detail parts; None without a profile line."""
        parts = parts_of(details)
        found = next((PROFILE.match(p) for p in parts if PROFILE.match(p)), None)
        if found is None:
            return None
        house = house_rules(printed_rules)
        lost: list[str] = []
        unit: dict[str, Any] = {
            "profile": dict(zip(CHARACTERISTICS, map(int, found.groups()), strict=True)),
            "size": "moyenne",
            "weapons": [],
            "abilities": [],
            "vehicle": None,
        }
        for part in parts:
            if sized := SIZE.match(part):
                unit["size"] = SIZES[sized[1]]
            elif is_weapon(part):
                unit["weapons"].append(self.weapon(part, house, lost))
            elif part.startswith(ABILITIES):
                unit["abilities"] = [
                    self.ability(name, house, lost)
                    for name in part.removeprefix(ABILITIES).split(", ")
                ]
            elif part.startswith(UNPRICED):
                unit["equipment"] = [e[:80] for e in part.removeprefix(UNPRICED).split(", ")]
        unit["weapons"], unit["abilities"] = unit["weapons"][:20], unit["abilities"][:20]
        if any(
            isinstance(w, dict) and not w["melee"] and w.get("CU") is None for w in unit["weapons"]
        ) or any(isinstance(w, str) and self.catalogue.weapon(w).mounted for w in unit["weapons"]):
            unit["vehicle"] = {"type": "roues", "crew": 0, "crew_roles": "", "passengers": 0}
            lost.append(VEHICLE_LOST)
        return Rebuilt(unit, lost)

    def ability(self, name: str, house: dict[str, int], lost: list[str]) -> Any:
        known = self.abilities.get(fold(name))
        if known is not None:
            return known
        points = house.get(name)
        if points is None:
            lost.append(f"habileté « {name} » : son coût n'est pas imprimé")
        return {"name": name[:60], "points": points or 0}


def same_unit(model: Any, one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two unit definitions are the same unit as printed (a vehicle counts by its
    presence: its type, crew and passengers are not printed)."""
    try:
        first = model.model_validate(one).model_dump(mode="json")
        second = model.model_validate(other).model_dump(mode="json")
    except ValidationError:
        return False
    for unit in (first, second):
        unit["vehicle"] = unit["vehicle"] is not None
        unit["size_mm"] = None
    return bool(first == second)

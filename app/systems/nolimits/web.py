"""No Limits pages: the creator's book-like profile and weapon tables, the victory points
form, and the fields the roster editor adds (leader, placement, general, banner, army)."""

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from starlette.datastructures import FormData

from app.systems.nolimits import BANDS, CHARACTERISTICS, NolimitsSystem
from app.web.forms import error_text, form_text, int_or_raw
from app.web.render import render
from app.web.system_pages import SystemPages

WEAPON_ROWS = 3  # blank rows offered in the creator's weapon table (more on demand)
HOUSE_RULE_ROWS = 2
MAX_WEAPON_ROWS = 12
ELIMINATED_ROWS = 4
# The creator opens on the text's Fantassin (L117-121), as the catalogue prints it.
FIRST_PROFILE = "fantassin"


def _band(form: FormData, prefix: str) -> list[Any] | None:
    distance, modifier = int_or_raw(form.get(f"{prefix}-d")), int_or_raw(form.get(f"{prefix}-m"))
    if distance is None and modifier is None:
        return None
    return [distance, modifier if modifier is not None else 0]


def _weapon_row(form: FormData, index: int) -> dict[str, Any]:
    """One row of the inline weapon table, as typed (a row without a name is ignored)."""
    key = f"w{index}"
    name = form_text(form, f"{key}-name", 60)
    weapon: dict[str, Any] = {
        "name": name,
        "melee": bool(form.get(f"{key}-melee")),
        "CdA": int_or_raw(form.get(f"{key}-CdA")),
        "FO": int_or_raw(form.get(f"{key}-FO")),
        "DG": int_or_raw(form.get(f"{key}-DG")),
        "MPA": int_or_raw(form.get(f"{key}-MPA")) or 0,
        "rules": [str(rule) for rule in form.getlist(f"{key}-rules")],
    }
    if kind := form_text(form, f"{key}-type"):
        weapon["type"] = kind
    if (use_cost := int_or_raw(form.get(f"{key}-CU"))) is not None:
        weapon["CU"] = use_cost
    for band in BANDS:
        if (value := _band(form, f"{key}-{band}")) is not None:
            weapon[band] = value
    return weapon


class NolimitsPages(SystemPages[NolimitsSystem]):
    labels: ClassVar[Mapping[str, str]] = {
        "size_mm": "Hauteur",
        "category": "Catégorie",
        "crew": "Équipage",
        "passengers": "Passagers",
        "MPA": "Pénétration",
        "general_points": "Général adverse éliminé",
        "terrain_held": "Éléments de décor contrôlés",
        "enemy_survivors_points": "Points des survivants adverses",
        "size_in": "Taille (pouces)",
        "material": "Matériau",
    }
    creator_keys = (*SystemPages.creator_keys, "category")

    lookups = ("units", "profiles", "weapons", "abilities", "categories", "sizes", "vehicle_types")

    def catalogue_context(self, cat: Any) -> dict[str, Any]:
        return {
            "characteristics": CHARACTERISTICS,
            "bands": BANDS,
        }

    # --- the creator ---------------------------------------------------------------------

    def default_unit(self) -> dict[str, Any]:
        printed = self.engine.data.profile(FIRST_PROFILE)
        return self._values(
            name=printed.name,
            profile=printed.profile.model_dump(),
            catalogue_weapons=dict(Counter(printed.weapons)),
        )

    def _values(self, **given: Any) -> dict[str, Any]:
        values: dict[str, Any] = {
            "name": "",
            "profile": {code: None for code in CHARACTERISTICS},
            "size": "",
            "size_mm": None,
            "catalogue_weapons": {},
            "weapons": [],
            "typed_weapons": [],
            "weapon_rows": WEAPON_ROWS,
            "abilities": [],
            "house_rules": [],
            "typed_house_rules": [],
            "vehicle": None,
            "typed_vehicle": None,
            "equipment": "",
            "category": "",
        }
        values.update(given)
        return values

    def unit_from_form(self, form: FormData) -> dict[str, Any]:
        rows = int_or_raw(form.get("weapon_rows"))
        rows = min(max(rows if isinstance(rows, int) else WEAPON_ROWS, 1), MAX_WEAPON_ROWS)
        if form.get("action") == "more_weapons":
            rows += 1
        typed_vehicle = {
            "type": form_text(form, "vehicle-type"),
            "crew": int_or_raw(form.get("vehicle-crew")) or 0,
            "crew_roles": form_text(form, "vehicle-crew_roles"),
            "passengers": int_or_raw(form.get("vehicle-passengers")) or 0,
        }
        typed_rules = [
            {
                "name": form_text(form, f"h{index}-name", 60),
                "points": int_or_raw(form.get(f"h{index}-points")),
            }
            for index in range(HOUSE_RULE_ROWS)
        ]
        house_rules = [rule for rule in typed_rules if rule["name"]]
        vehicle = typed_vehicle if form.get("vehicle") else None
        # The page is morphed to what the server renders: rows not (yet) part of the unit,
        # a weapon without a name, keep what was typed in them.
        typed_weapons = [_weapon_row(form, index) for index in range(rows)]
        return self._values(
            name=form_text(form, "name"),
            profile={code: int_or_raw(form.get(f"p-{code}")) for code in CHARACTERISTICS},
            size=form_text(form, "size"),
            size_mm=int_or_raw(form.get("size_mm")),
            catalogue_weapons={
                weapon_id: count
                for weapon_id in (weapon.id for weapon in self.engine.data.weapons)
                if isinstance(count := int_or_raw(form.get(f"cw-{weapon_id}")), int) and count > 0
            },
            weapons=[weapon for weapon in typed_weapons if weapon["name"]],
            typed_weapons=typed_weapons,
            weapon_rows=rows,
            abilities=[str(a) for a in form.getlist("abilities")],
            house_rules=house_rules,
            typed_house_rules=typed_rules,
            vehicle=vehicle,
            typed_vehicle=typed_vehicle,
            equipment=form_text(form, "equipment", 300),
            category=form_text(form, "category"),
        )

    def definition(self, values: dict[str, Any]) -> dict[str, Any]:
        weapons: list[Any] = [
            weapon_id
            for weapon_id, count in values["catalogue_weapons"].items()
            for _ in range(min(count, 20))
        ]
        equipment = [part.strip() for part in values["equipment"].split(",") if part.strip()]
        definition: dict[str, Any] = {
            "profile": values["profile"],
            "weapons": weapons + values["weapons"],
            "abilities": values["abilities"] + values["house_rules"],
            "vehicle": values["vehicle"],
            "equipment": equipment,
        }
        if values["size"]:
            definition["size"] = values["size"]
        if values["size_mm"] is not None:
            definition["size_mm"] = values["size_mm"]
        return definition

    def custom_entry(self, values: dict[str, Any], unit: BaseModel) -> dict[str, Any]:
        entry = super().custom_entry(values, unit)
        if values["category"]:
            entry["category"] = values["category"]
        return entry

    def values_from_entry(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        """A custom unit as the creator's form: catalogue weapons counted, the player's own
        weapons as rows, house rules in their rows (None when they do not fit the form)."""
        custom = entry["custom"]
        typed = [
            {key: value for key, value in weapon.items() if value is not None}
            for weapon in custom.get("weapons", [])
            if isinstance(weapon, dict)
        ]
        house_rules = [
            {"name": rule.get("name"), "points": rule.get("points")}
            for rule in custom.get("abilities", [])
            if isinstance(rule, dict)
        ]
        if len(typed) > MAX_WEAPON_ROWS or len(house_rules) > HOUSE_RULE_ROWS:
            return None
        vehicle = custom.get("vehicle")
        return self._values(
            name=entry.get("name") or "",
            profile=dict(custom.get("profile") or {}),
            size=custom.get("size") or "",
            size_mm=custom.get("size_mm"),
            catalogue_weapons=dict(
                Counter(w for w in custom.get("weapons", []) if isinstance(w, str))
            ),
            weapons=typed,
            typed_weapons=typed,
            weapon_rows=max(WEAPON_ROWS, len(typed)),
            abilities=[a for a in custom.get("abilities", []) if isinstance(a, str)],
            house_rules=house_rules,
            typed_house_rules=house_rules,
            vehicle=vehicle,
            typed_vehicle=vehicle,
            equipment=", ".join(custom.get("equipment", [])),
            category=entry.get("category") or "",
        )

    # --- buildings -------------------------------------------------------------------------

    def router(self) -> APIRouter:
        router = super().router()

        @router.post("/batiment")
        async def building(request: Request) -> Response:
            """A building's EN, SV and PV from the materials table (L277-282)."""
            form = await request.form()
            values = {
                "material": form_text(form, "material"),
                "size_in": int_or_raw(form.get("size_in")),
            }
            context: dict[str, Any] = {"system": self.system, "my_rosters": [], **self.context()}
            status = 200
            try:
                engine = self.engine
                context["building"] = engine.building(engine.building_model.model_validate(values))
            except ValidationError as exc:
                context["building_error"] = error_text(exc, self.labels)
                status = 422
            return render(
                request, "systems/nolimits/catalogue.html", context, block="building", status=status
            )

        return router

    # --- the roster editor ---------------------------------------------------------------

    def new_entry(self, form: FormData) -> dict[str, Any] | None:
        unit_id, data = str(form.get("add-unit") or ""), self.engine.data
        if not data.has("units", unit_id):
            return None
        unit = data.unit(unit_id)
        # A formation starts at its smallest legal size ("De 4 à 8 fantassins", L120).
        return {"unit": unit.id, "count": max(unit.troopers.min, 1)}

    def entry_from_form(self, form: FormData, index: int, entry: dict[str, Any]) -> dict[str, Any]:
        key = f"entry-{index}"
        entry["placement"] = form_text(form, f"{key}-placement") or None
        entry["general"] = bool(form.get(f"{key}-general"))
        entry["battle_standard"] = bool(form.get(f"{key}-battle_standard"))
        # The formation's optional leader ("De 0 à 1 chef d'unité", L115); a leader defined
        # through the API (an object) is kept as it is.
        leader = form.get(f"{key}-leader-slot")
        if leader is not None and not isinstance(entry.get("leader"), dict):
            entry["leader"] = str(leader) if form.get(f"{key}-leader") else None
        if entry.get("custom") is not None:
            entry["category"] = form_text(form, f"{key}-category") or None
        return entry

    def extras_from_form(self, form: FormData) -> dict[str, Any]:
        return {"army": form_text(form, "army")}

    # --- victory points ------------------------------------------------------------------

    def score_from_form(self, form: FormData) -> dict[str, Any]:
        eliminated = []
        for index in range(ELIMINATED_ROWS):
            points = int_or_raw(form.get(f"e{index}-points"))
            if points is None:
                continue
            eliminated.append(
                {
                    "name": form_text(form, f"e{index}-name"),
                    "points": points,
                    "count": int_or_raw(form.get(f"e{index}-count")) or 1,
                }
            )
        return {
            "eliminated": eliminated,
            "general_points": int_or_raw(form.get("general_points")),
            "terrain_held": int_or_raw(form.get("terrain_held")) or 0,
            "enemy_banner": bool(form.get("enemy_banner")),
            "enemy_conceded": bool(form.get("enemy_conceded")),
            "enemy_survivors_points": int_or_raw(form.get("enemy_survivors_points")) or 0,
        }

    def score_context(self, form: FormData | None) -> dict[str, Any]:
        return {"rows": ELIMINATED_ROWS}

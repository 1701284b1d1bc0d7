"""Necromunda–Warzone pages: the catalogue with the shooting helper, the figure creator
(a book-like profile and weapon rows, the figure's numbers live above), and the editor's
sample figures. The text has no points: no page shows any."""

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError
from starlette.datastructures import FormData

from app.db import SessionDep
from app.systems.necrowarzone import NecrowarzoneSystem
from app.systems.necrowarzone.models import CHARACTERISTICS
from app.systems.necrowarzone.shooting import NecrowarzoneShotRequest, read_roll
from app.web.deps import FormDep
from app.web.forms import form_text, int_or_raw, roster_choices
from app.web.render import render
from app.web.system_pages import SystemPages

WEAPON_ROWS = 3  # weapon rows the creator offers (one more on demand)
MAX_WEAPON_ROWS = 20  # a figure carries 20 weapons at most (models.py)
# The creator opens on the text's usual figure: a ganger (Caserne's sample).
FIRST_FIGURE = "ganger"
SHOT_DEFAULTS: dict[str, Any] = {
    "ct": 3,
    "cover": "",
    "conditions": [],
    "target_took_cover": False,
    "aim_actions": 0,
    "weapon_modifier": 0,
}


def _weapon_row(form: FormData, index: int) -> dict[str, Any] | None:
    """One weapon row of the creator, or None when its name is blank."""
    name = form_text(form, f"w{index}-name")
    if not name:
        return None
    modifier = int_or_raw(form.get(f"w{index}-mod"))
    return {
        "name": name,
        "heavy": bool(form.get(f"w{index}-heavy")),
        "hit_modifier": modifier if modifier is not None else 0,
    }


def percent(chance: str) -> str:
    """A chance as players read it: "2/3" is "67 %"."""
    return f"{round(Fraction(chance) * 100)}\u00a0%"


def roll_text(score: int) -> str:
    """A score to hit as it reads on 1D6: "4+", "6 puis 5+" (shooting.read_roll)."""
    return read_roll(score)[0]


class NecrowarzonePages(SystemPages[NecrowarzoneSystem]):
    labels: ClassVar[Mapping[str, str]] = {
        "xp": "Expérience (XP)",
        "light_wounds": "Blessures légères",
        "leader": "Chef de gang",
        "weapons": "Armes",
        "hit_modifier": "Modificateur pour toucher",
        "heavy": "Arme lourde",
        "heavy_equipment": "Équipement lourd",
        "ct": "CT",
        "modifiers": "Modificateurs",
        "aim_actions": "Viser",
        "weapon_modifier": "Modificateur de l'arme",
    }

    # XP and light wounds, as the editor takes them (docs/rules-notes.md, Necromunda–Warzone
    # 3 and 5): whole numbers from 0, at most the model's bounds.
    entry_bounds: ClassVar[Mapping[str, tuple[int, int]]] = {
        "xp": (0, 1_000_000),
        "light_wounds": (0, 20),
    }

    lookups = ("figures",)

    def catalogue_context(self, cat: Any) -> dict[str, Any]:
        return {
            "characteristics": CHARACTERISTICS,
            "covers": [m for m in cat.modifiers if m.group == "couvert"],
            "conditions": [m for m in cat.modifiers if m.group == "condition"],
            "shot_form": SHOT_DEFAULTS,
            # The helper opens on a shot already worked out: CT 3, nothing else (4+).
            "shot": self.engine.shoot(self.shot_model(SHOT_DEFAULTS)),
            "percent": percent,
            "roll_text": roll_text,
        }

    # --- the creator ---------------------------------------------------------------------

    def default_unit(self) -> dict[str, Any]:
        sample = self.engine.data.find("figures", FIRST_FIGURE)
        values = sample.figure.model_dump(mode="json")
        rows = max(WEAPON_ROWS, len(values["weapons"]))
        return {"name": sample.name, **values, "weapon_rows": rows}

    def unit_from_form(self, form: FormData) -> dict[str, Any]:
        rows = int_or_raw(form.get("weapon_rows"))
        rows = min(max(rows if isinstance(rows, int) else WEAPON_ROWS, 1), MAX_WEAPON_ROWS)
        if form.get("action") == "more_weapons":
            rows = min(rows + 1, MAX_WEAPON_ROWS)
        xp, wounds = int_or_raw(form.get("xp")), int_or_raw(form.get("light_wounds"))
        return {
            "name": form_text(form, "name"),
            "leader": bool(form.get("leader")),
            "xp": xp if xp is not None else 0,
            "light_wounds": wounds if wounds is not None else 0,
            "profile": {code: int_or_raw(form.get(f"p-{code}")) for code in CHARACTERISTICS},
            "weapons": [w for index in range(rows) if (w := _weapon_row(form, index)) is not None],
            "heavy_equipment": bool(form.get("heavy_equipment")),
            "weapon_rows": rows,
        }

    def definition(self, values: dict[str, Any]) -> dict[str, Any]:
        keys = ("leader", "xp", "light_wounds", "profile", "weapons", "heavy_equipment")
        return {key: values[key] for key in keys}

    def values_from_entry(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        custom = entry["custom"]
        rows = max(WEAPON_ROWS, len(custom.get("weapons", [])))
        if rows > MAX_WEAPON_ROWS:
            return None
        return {"name": entry.get("name") or "", **custom, "weapon_rows": rows}

    # --- the roster editor ------------------------------------------------------------------

    def entry_from_form(self, form: FormData, index: int, entry: dict[str, Any]) -> dict[str, Any]:
        """XP and light wounds change between games: a sample figure given other values
        becomes the player's own figure, under the sample's name."""
        key = f"entry-{index}"
        if form.get(f"{key}-xp") is None and form.get(f"{key}-light_wounds") is None:
            return entry
        xp, wounds = int_or_raw(form.get(f"{key}-xp")), int_or_raw(form.get(f"{key}-light_wounds"))
        figure = entry.get("custom")
        if figure is None:
            sample = self.engine.data.figure(str(entry.get("unit")))
            if sample is None:
                return entry
            figure = sample.figure.model_dump(mode="json")
            if (figure["xp"], figure["light_wounds"]) == (xp, wounds):
                return entry
            entry = {k: v for k, v in entry.items() if k != "unit"}
            entry["name"] = entry.get("name") or sample.name
        if not isinstance(figure, dict):
            return entry
        entry["custom"] = {
            **figure,
            "xp": xp if xp is not None else 0,
            "light_wounds": wounds if wounds is not None else 0,
        }
        return entry

    # --- the shooting helper ---------------------------------------------------------------

    def router(self) -> APIRouter:
        router = super().router()

        @router.post("/tir")
        def shooting(request: Request, session: SessionDep, form: FormDep) -> Response:
            """The score a shot needs (L38-49), on the catalogue page (a plain `def`: the
            browser's lists are read in the thread pool)."""
            values = self.shot_from_form(form)
            context: dict[str, Any] = {
                "system": self.system,
                "my_rosters": roster_choices(request, session, self.system_id),
                **self.context(),
                "shot_form": values,
            }
            status = 200
            try:
                context["shot"] = self.engine.shoot(self.shot_model(values))
            except ValidationError as exc:
                context["shot"] = None
                context["shot_error"] = "; ".join(dict.fromkeys(self.errors_of(exc).values()))
                status = 422
            # The whole catalogue page without JavaScript, the helper's block with HTMX.
            return render(
                request,
                "systems/necrowarzone/catalogue.html",
                context,
                block="shooting",
                status=status,
            )

        return router

    def shot_from_form(self, form: FormData) -> dict[str, Any]:
        aim, weapon = int_or_raw(form.get("aim_actions")), int_or_raw(form.get("weapon_modifier"))
        return {
            "ct": int_or_raw(form.get("ct")),
            "cover": form_text(form, "cover"),
            "conditions": [str(c) for c in form.getlist("conditions")][:20],
            "target_took_cover": bool(form.get("target_took_cover")),
            "aim_actions": aim if aim is not None else 0,
            "weapon_modifier": weapon if weapon is not None else 0,
        }

    @staticmethod
    def shot_model(values: dict[str, Any]) -> NecrowarzoneShotRequest:
        """The API's shot request from the form: the cover radio is one more modifier."""
        cover = [values["cover"]] if values["cover"] else []
        return NecrowarzoneShotRequest.model_validate(
            {
                "ct": values["ct"],
                "modifiers": cover + values["conditions"],
                "target_took_cover": values["target_took_cover"],
                "aim_actions": values["aim_actions"],
                "weapon_modifier": values["weapon_modifier"],
            }
        )

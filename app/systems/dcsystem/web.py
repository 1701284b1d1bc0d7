"""DCSystem pages: the fighter creator's form, the score form, the fields the roster
editor adds for this system (Renfort group, hidden moves, costing), and the odds page
(/dcsystem/chances)."""

from collections.abc import Mapping
from typing import Any, ClassVar

from fastapi import APIRouter, Request, Response
from starlette.datastructures import FormData

from app.systems.dcsystem import DcSystem
from app.systems.dcsystem.play import chances_context
from app.web.forms import int_or_raw
from app.web.render import render
from app.web.system_pages import SystemPages


class DcsystemPages(SystemPages[DcSystem]):
    labels: ClassVar[Mapping[str, str]] = {
        "level": "Niveau",
        "items": "Capacités",
        "format": "Format",
        "kills": "Ennemis mis hors jeu",
    }
    lookups = ("units", "items")

    def default_unit(self) -> dict[str, Any]:
        return {"name": "", "level": 2, "items": ["arme_tir_2", "gilet_de_protection"]}

    def unit_from_form(self, form: FormData) -> dict[str, Any]:
        return {
            "name": str(form.get("name") or "")[:80],
            "level": int_or_raw(form.get("level")),
            "items": [str(item) for item in form.getlist("items")],
        }

    def definition(self, values: dict[str, Any]) -> dict[str, Any]:
        return {"level": values["level"], "items": values["items"]}

    def values_from_entry(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        custom = entry["custom"]
        return {
            "name": entry.get("name") or "",
            "level": custom.get("level"),
            "items": [str(item) for item in custom.get("items", [])],
        }

    def score_from_form(self, form: FormData) -> dict[str, Any]:
        return {
            "format": int_or_raw(form.get("format")),
            "main_mission": bool(form.get("main_mission")),
            "secondary_mission": bool(form.get("secondary_mission")),
            "kills": {level: int_or_raw(form.get(f"kills_{level}")) or 0 for level in "123"},
        }

    def score_context(self, form: FormData | None) -> dict[str, Any]:
        points_limit = int_or_raw(form.get("format")) if form is not None else None
        return {"doc": {"points_limit": points_limit}}

    def entry_from_form(self, form: FormData, index: int, entry: dict[str, Any]) -> dict[str, Any]:
        entry.pop("group", None)
        if form.get(f"entry-{index}-renfort"):
            entry["group"] = "renfort"
        return entry

    def extras_from_form(self, form: FormData) -> dict[str, Any]:
        return {
            "hidden_moves": form.getlist("hidden_moves"),
            "hidden_moves_agreed": bool(form.get("hidden_moves_agreed")),
            "costing": form.get("costing") or "printed",
        }

    def router(self) -> APIRouter:
        router = super().router()

        @router.get("/chances")
        def chances(
            request: Request,
            rouges: str = "3",
            bleus: str = "0",
            blancs: str = "2",
            reussite: str = "5+",
        ) -> Response:
            """Odds of a DCSystem pool: k successes and the PV they take off, exact."""
            context = chances_context(rouges, bleus, blancs, reussite)
            status = 422 if context["errors"] else 200
            return render(request, "systems/dcsystem/chances.html", context, status=status)

        return router

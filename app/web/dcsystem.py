"""DCSystem pages: the catalogue, the fighter creator, the score helper, and the form fields
the roster editor adds for this system (Renfort group, hidden moves, costing)."""

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError
from starlette.datastructures import FormData

from app.db import SessionDep
from app.systems.dcsystem import DcSystem
from app.systems.dcsystem.engine import FighterDefinition
from app.systems.dcsystem.roster import ScoreRequest
from app.web.forms import field_errors, int_or_raw, roster_choices
from app.web.render import render
from app.web.rosters import add_entry_to_roster


class DcsystemPages:
    """What the generic roster pages need to know about DCSystem forms."""

    system_id = "dcsystem"

    def __init__(self, system: DcSystem) -> None:
        self.system = system

    def context(self) -> dict[str, Any]:
        cat = self.system.catalogue()
        return {
            "cat": cat,
            "units": {unit.id: unit for unit in cat.units},
            "items": {item.id: item for item in cat.items},
        }

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

    def new_entry(self, form: FormData) -> dict[str, Any] | None:
        unit = form.get("add-unit")
        return {"unit": unit} if unit else None

    def router(self) -> APIRouter:
        router = APIRouter(prefix="/dcsystem", include_in_schema=False)
        system = self.system

        @router.get("/catalogue")
        def catalogue(request: Request, session: SessionDep) -> Response:
            return render(
                request,
                "dcsystem/catalogue.html",
                {
                    "system": system,
                    "my_rosters": roster_choices(request, session, system.id),
                    **self.context(),
                },
            )

        @router.get("/createur")
        def creator(request: Request, session: SessionDep) -> Response:
            fighter = FighterDefinition(level=2, items=["arme_tir_2", "gilet_de_protection"])
            return self._creator(request, session, {"name": "", "level": 2, "items": fighter.items})

        @router.post("/createur")
        async def creator_preview(request: Request, session: SessionDep) -> Response:
            form = await request.form()
            return self._creator(request, session, _fighter_form(form))

        @router.post("/createur/ajouter")
        async def creator_add(request: Request, session: SessionDep) -> Response:
            form = await request.form()
            values = _fighter_form(form)
            try:
                fighter = FighterDefinition.model_validate(values)
            except ValidationError as exc:
                return self._creator(request, session, values, status=422, errors=field_errors(exc))
            entry = {"custom": fighter.model_dump(), "name": values["name"] or None}
            return add_entry_to_roster(request, session, system, form, entry)

        @router.post("/score")
        async def score(request: Request) -> Response:
            form = await request.form()
            values = {
                "format": int_or_raw(form.get("format")),
                "main_mission": bool(form.get("main_mission")),
                "secondary_mission": bool(form.get("secondary_mission")),
                "kills": {level: int_or_raw(form.get(f"kills_{level}")) or 0 for level in "123"},
            }
            context: dict[str, Any] = {"format": values["format"]}
            status = 200
            try:
                context["score"] = system.score(ScoreRequest.model_validate(values))
            except ValidationError as exc:
                context["score_error"] = "; ".join(field_errors(exc).values())
                status = 422
            if request.headers.get("hx-request") == "true":
                return render(
                    request,
                    "systems/dcsystem/score.html",
                    context,
                    block="score_result",
                    status=status,
                )
            return render(request, "systems/dcsystem/score_page.html", context, status=status)

        return router

    def _creator(
        self,
        request: Request,
        session: SessionDep,
        values: dict[str, Any],
        *,
        status: int = 200,
        errors: dict[str, str] | None = None,
    ) -> Response:
        errors = dict(errors or {})
        costed = None
        try:
            costed = self.system.cost(FighterDefinition.model_validate(values))
        except ValidationError as exc:
            errors.update(field_errors(exc))
            status = 422
        context = {
            "system": self.system,
            "form": values,
            "costed": costed,
            "errors": errors,
            "my_rosters": roster_choices(request, session, self.system.id),
            **self.context(),
        }
        return render(request, "dcsystem/creator.html", context, block="result", status=status)


def _fighter_form(form: FormData) -> dict[str, Any]:
    return {
        "name": str(form.get("name") or "")[:80],
        "level": int_or_raw(form.get("level")),
        "items": [str(item) for item in form.getlist("items")],
    }

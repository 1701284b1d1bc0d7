"""What every system's pages share: catalogue, creator (live cost), "add to a list", score.

A system's pages subclass `SystemPages` and say how its forms read (a unit, a score, the
fields the roster editor adds); routes, validation and rendering are written once here.
Templates: `<id>/catalogue.html`, `<id>/creator.html` (with a `result` block) and
`systems/<id>/score.html` (with a `score_result` block).
"""

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from starlette.datastructures import FormData

from app.db import SessionDep
from app.systems.base import GameSystem
from app.web.forms import field_errors, roster_choices
from app.web.render import is_htmx, render
from app.web.rosters import add_entry_to_roster


class SystemPages:
    """Routes under /<system id>/; subclasses fill in the form readers."""

    def __init__(self, system: GameSystem) -> None:
        self.system = system
        self.system_id = system.id

    # --- what a subclass says ------------------------------------------------------------

    def context(self) -> dict[str, Any]:
        """What the templates need of the catalogue (for every page of the system)."""
        return {"cat": self.system.catalogue()}

    def default_unit(self) -> dict[str, Any]:
        """The creator's starting form values."""
        raise NotImplementedError

    def unit_from_form(self, form: FormData) -> dict[str, Any]:
        """The creator's form as form values (re-rendered) holding a unit definition."""
        raise NotImplementedError

    def definition(self, values: dict[str, Any]) -> dict[str, Any]:
        """The unit definition (as POST .../cost takes it) inside the creator's values."""
        return values

    def custom_entry(self, values: dict[str, Any], unit: BaseModel) -> dict[str, Any]:
        """The roster entry "add to a list" makes of a created unit."""
        return {"custom": unit.model_dump(mode="json"), "name": values.get("name") or None}

    def score_from_form(self, form: FormData) -> dict[str, Any]:
        raise NotImplementedError

    def score_context(self, form: FormData | None) -> dict[str, Any]:
        """What the score form shows (a roster's points limit, the values sent)."""
        return {}

    def entry_from_form(self, form: FormData, index: int, entry: dict[str, Any]) -> dict[str, Any]:
        return entry

    def extras_from_form(self, form: FormData) -> dict[str, Any]:
        return {}

    def new_entry(self, form: FormData) -> dict[str, Any] | None:
        unit = form.get("add-unit")
        return {"unit": str(unit)} if unit else None

    # --- the routes --------------------------------------------------------------------------

    def router(self) -> APIRouter:
        router = APIRouter(prefix=f"/{self.system_id}", include_in_schema=False)

        @router.get("/catalogue")
        def catalogue(request: Request, session: SessionDep) -> Response:
            context = {
                "system": self.system,
                "my_rosters": roster_choices(request, session, self.system_id),
                **self.context(),
            }
            return render(request, f"{self.system_id}/catalogue.html", context)

        @router.get("/createur")
        def creator(request: Request, session: SessionDep) -> Response:
            return self.creator_page(request, session, self.default_unit())

        @router.post("/createur")
        async def creator_preview(request: Request, session: SessionDep) -> Response:
            return self.creator_page(request, session, self.unit_from_form(await request.form()))

        @router.post("/createur/ajouter")
        async def creator_add(request: Request, session: SessionDep) -> Response:
            form = await request.form()
            values = self.unit_from_form(form)
            try:
                unit = self.system.unit_model.model_validate(self.definition(values))
            except ValidationError as exc:
                return self.creator_page(
                    request, session, values, status=422, errors=field_errors(exc)
                )
            return add_entry_to_roster(
                request, session, self.system, form, self.custom_entry(values, unit)
            )

        @router.post("/score")
        async def score(request: Request) -> Response:
            form = await request.form()
            context = self.score_context(form)
            status = 200
            try:
                parsed = self.system.score_model.model_validate(self.score_from_form(form))
                context["score"] = self.system.score(parsed)
            except ValidationError as exc:
                context["score_error"] = "; ".join(field_errors(exc).values())
                status = 422
            template = f"systems/{self.system_id}/score.html"
            if is_htmx(request):
                return render(request, template, context, block="score_result", status=status)
            return render(
                request, "score_page.html", {**context, "score_template": template}, status=status
            )

        return router

    def creator_page(
        self,
        request: Request,
        session: SessionDep,
        values: dict[str, Any],
        *,
        status: int = 200,
        errors: dict[str, str] | None = None,
    ) -> Response:
        """The creator with the unit's live cost, or with what is wrong next to the controls."""
        errors = dict(errors or {})
        costed = None
        try:
            costed = self.system.cost(
                self.system.unit_model.model_validate(self.definition(values))
            )
        except ValidationError as exc:
            errors.update(field_errors(exc))
            status = 422
        context = {
            "system": self.system,
            "form": values,
            "costed": costed,
            "errors": errors,
            "my_rosters": roster_choices(request, session, self.system_id),
            **self.context(),
        }
        template = f"{self.system_id}/creator.html"
        return render(request, template, context, block="result", status=status)

"""The new-list form (`/listes/nouvelle`): name, format and army chosen first; the list is
stored only once « Créer » asks for it."""

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.systems.base import AnySystem
from app.web.forms import count_bounds, field_errors, int_or_raw, with_form
from app.web.render import html_error, render
from app.web.toolkit import UNKNOWN_SYSTEM, create_and_open, empty_document, systems_of

router = APIRouter(include_in_schema=False)


def catalogue_armies(system: AnySystem) -> list[tuple[str, str]]:
    """The armies (or factions) the system's catalogue lists, as (id, name)."""
    catalogue = system.catalogue()
    groups: Sequence[Any] = (
        getattr(catalogue, "armies", None) or getattr(catalogue, "factions", None) or []
    )
    return [(str(group.id), str(group.name)) for group in groups]


def stores_army(system: AnySystem) -> bool:
    """Whether the system's roster document keeps an army (No Limits: `extras.army`)."""
    extras = system.roster_model.model_fields.get("extras")
    model = extras.annotation if extras is not None else None
    return isinstance(model, type) and issubclass(model, BaseModel) and "army" in model.model_fields


def new_form(
    request: Request,
    system: AnySystem | None,
    *,
    values: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> Response:
    context: dict[str, Any] = {
        "system": system,
        "systems": list(systems_of(request).values()),
        "values": values or {},
        "errors": errors or {},
    }
    if system is not None:
        context |= {
            "armies": catalogue_armies(system),
            "army_text": stores_army(system),
            "limit_bounds": count_bounds(system.roster_model).get("points_limit"),
            "formats": sorted(
                {
                    limit
                    for example in system.example_rosters()
                    if isinstance(limit := example.document.get("points_limit"), int)
                }
            ),
        }
    return render(request, "roster/new.html", context, status=status)


@router.get("/listes/nouvelle")
def new_roster_form(request: Request, system: str = "") -> Response:
    """Choose the name, the format and the army; nothing is stored before « Créer »."""
    return new_form(request, systems_of(request).get(system))


def create(request: Request, session: Session, form: FormData) -> Response:
    system = systems_of(request).get(str(form.get("system")))
    if system is None:
        return html_error(request, 422, UNKNOWN_SYSTEM)
    values = {key: str(form.get(key) or "").strip() for key in ("name", "points_limit", "army")}
    document = empty_document(system)
    document["name"] = values["name"]
    if system.has_points:
        document["points_limit"] = int_or_raw(values["points_limit"])
    armies = dict(catalogue_armies(system))
    # An army of the catalogue by its id, or the free text a No Limits list keeps.
    army = armies.get(values["army"], "") if armies else values["army"]
    if army and stores_army(system):
        document["extras"]["army"] = army
    elif army and not document["name"]:
        document["name"] = army  # the list is named after its army until renamed
    try:
        system.roster_model.model_validate(document)
    except ValidationError as exc:
        errors = field_errors(exc, bounds=count_bounds(system.roster_model))
        if "extras" in errors:
            errors.setdefault("army", errors["extras"])
        return new_form(request, system, values=values, errors=errors, status=422)
    return create_and_open(request, session, system, document)


router.add_api_route("/listes/nouvelle", with_form(create), methods=["POST"])

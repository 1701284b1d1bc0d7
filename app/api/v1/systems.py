"""GET /api/v1/systems, and the stateless calculator routes of each registered system."""

from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

import anyio
from fastapi import APIRouter, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from app.problems import ApiError, Problem, documented_methods
from app.systems.base import AnySystem, ScoreResult

ModelT = TypeVar("ModelT", bound=BaseModel)

PROBLEMS: dict[int | str, dict[str, Any]] = {
    422: {"model": Problem, "description": "Invalid input (problem+json, naming the field)."},
}


class SystemOut(BaseModel):
    id: str
    name: str
    rules_version: str
    has_points: bool
    catalogue_version: str


def systems_router(systems: dict[str, AnySystem]) -> APIRouter:
    router = APIRouter(prefix="/api/v1/systems", tags=["systems"])

    @router.get(
        "", response_model=list[SystemOut], summary="The game systems", operation_id="list_systems"
    )
    def list_systems() -> list[SystemOut]:
        return [
            SystemOut(
                id=s.id,
                name=s.name,
                rules_version=s.rules_version,
                has_points=s.has_points,
                catalogue_version=s.catalogue_version,
            )
            for s in systems.values()
        ]

    for system in systems.values():
        _add_system_routes(router, system)

    @router.api_route(
        "/{system_id}/{rest:path}",
        methods=["GET", "POST"],
        include_in_schema=False,
    )
    def unknown_system(system_id: str, rest: str, request: Request) -> None:
        if system_id not in systems:
            raise ApiError(404, f"Unknown game system {system_id!r}; see /api/v1/systems.")
        allowed = documented_methods(request.app, request.url.path)
        if allowed:
            methods = ", ".join(allowed)
            raise ApiError(405, f"Use {methods} for this resource.", headers={"Allow": methods})
        raise ApiError(404, f"No such resource for system {system_id!r}: {rest!r}.")

    return router


def json_response(model: BaseModel) -> Response:
    return Response(model.model_dump_json(), media_type="application/json")


def json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI request body of a route that parses its body itself (see `parse`)."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


async def parse(request: Request, model: type[ModelT]) -> ModelT:
    """The body as `model`, parsed by pydantic-core straight from the bytes: errors are the
    same 422 problems as FastAPI's, at a fraction of its per-request cost."""
    try:
        return model.model_validate_json(await request.body())
    except ValidationError as exc:
        errors = [{**error, "loc": ("body", *error["loc"])} for error in exc.errors()]
        raise RequestValidationError(errors) from None


# A body this large (a roster of many custom units: ~0.3 s of CPU at 0.9 MB) is parsed and
# computed in a worker thread, at most HEAVY_AT_ONCE at a time, so that it cannot stall the
# event loop and every other request with it; small ones stay on the loop (no thread hop).
OFFLOAD_BYTES = 64_000
HEAVY_AT_ONCE = anyio.CapacityLimiter(1)


def _computed(body: bytes, model: type[ModelT], compute: Callable[[ModelT], BaseModel]) -> Response:
    try:
        parsed = model.model_validate_json(body)
    except ValidationError as exc:
        errors = [{**error, "loc": ("body", *error["loc"])} for error in exc.errors()]
        raise RequestValidationError(errors) from None
    return json_response(compute(parsed))


async def calculate(
    request: Request, model: type[ModelT], compute: Callable[[ModelT], BaseModel]
) -> Response:
    """`compute` of the body parsed as `model`, off the event loop when the body is heavy."""
    body = await request.body()
    if len(body) < OFFLOAD_BYTES:
        return _computed(body, model, compute)
    return await anyio.to_thread.run_sync(_computed, body, model, compute, limiter=HEAVY_AT_ONCE)


def _add_system_routes(router: APIRouter, system: AnySystem) -> None:
    unit_model: Any = system.unit_model
    roster_model: Any = system.roster_model
    score_model: Any = system.score_model  # None: the system has no end-of-game score
    tags: list[str | Enum] = [system.id]

    # The engines are pure and fast (tens of microseconds for a fighter): these handlers run
    # on the event loop unless the body is heavy (see `calculate`), and answer with the
    # model's own JSON (it is the response model).
    catalogue_json: list[bytes] = []

    async def catalogue() -> Response:
        if not catalogue_json:
            catalogue_json.append(system.catalogue().model_dump_json().encode())
        return Response(catalogue_json[0], media_type="application/json")

    async def cost(request: Request) -> Response:
        return await calculate(request, unit_model, system.cost)

    async def validate(request: Request) -> Response:
        return await calculate(request, roster_model, system.validate)

    async def score(request: Request) -> Response:
        return await calculate(request, score_model, system.score)

    router.add_api_route(
        f"/{system.id}/catalogue",
        catalogue,
        methods=["GET"],
        tags=tags,
        response_model=system.catalogue_model,
        summary=f"{system.name}: catalogue",
        operation_id=f"{system.id}_catalogue",
    )
    calculator: list[tuple[str, Any, Any, Any, str]] = [
        ("cost", cost, unit_model, system.cost_response_model, "cost one unit"),
        ("validate", validate, roster_model, system.validate_response_model, "validate a roster"),
    ]
    if score_model is not None:
        calculator.append(("score", score, score_model, ScoreResult, "end-of-game score"))
    for name, endpoint, body, response_model, summary in calculator:
        router.add_api_route(
            f"/{system.id}/{name}",
            endpoint,
            methods=["POST"],
            tags=tags,
            responses=PROBLEMS,
            response_model=response_model,
            openapi_extra=json_body(body),
            summary=f"{system.name}: {summary}",
            operation_id=f"{system.id}_{name}",
        )

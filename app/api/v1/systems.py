"""GET /api/v1/systems, and the stateless calculator routes of each registered system."""

import hashlib
import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import anyio
from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel

from app.api.v1 import heavy
from app.api.v1.bodies import ModelT, computed, require_json
from app.api.v1.typed import example_typed
from app.http_cache import Memo
from app.middleware import accepts_gzip
from app.problems import ApiError, Problem, documented_methods
from app.systems.base import AnySystem, ScoreResult

PROBLEMS: dict[int | str, dict[str, Any]] = {
    415: {"model": Problem, "description": "The body is not sent as application/json."},
    422: {"model": Problem, "description": "Invalid input (problem+json, naming the field)."},
    503: {
        "model": Problem,
        "description": "A body over 64 kB while too many wait to be computed: retry after "
        "the Retry-After header's seconds.",
    },
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
        return [SystemOut.model_validate(s, from_attributes=True) for s in systems.values()]

    for system in systems.values():
        _add_system_routes(router, system)

    @router.api_route(
        "/{system_id}/{rest:path}",
        methods=["GET", "POST"],
        include_in_schema=False,
    )
    def unknown_system(system_id: str, rest: str, request: Request) -> None:
        refuse(systems, system_id, rest, request)

    return router


def refuse(
    systems: Mapping[str, AnySystem], system_id: str, rest: str, request: Request
) -> NoReturn:
    """The answer to a path under /api/v1/systems/ that no calculator route takes: 404 for
    an unknown system or resource, 405 with Allow for a known path and another method."""
    if system_id not in systems:
        raise ApiError(
            404,
            f"Unknown game system {system_id!r}; see /api/v1/systems.",
            code="system_not_found",
            loc=["path", "system_id"],
        )
    allowed = documented_methods(request.app, request.url.path)
    if allowed:
        methods = ", ".join(allowed)
        raise ApiError(405, f"Use {methods} for this resource.", headers={"Allow": methods})
    raise ApiError(404, f"No such resource for system {system_id!r}: {rest!r}.")


CALCULATION = "/api/v1/systems/{system_id}/{calculation}"


def calculations_router(
    routers: Sequence[APIRouter], systems: Mapping[str, AnySystem]
) -> APIRouter:
    """Every calculator POST (each system's cost, validate and score, the extensions'
    routes) as one plain Starlette route, tried right after the site's own routes: FastAPI
    tries its routes in turn, 3-10 µs each, and a validate passed 26 of them and FastAPI's
    request handling (about 0.05 ms of a 0.45 ms validate in one process, issue 29). It
    calls the very endpoints of `routers`' routes, which stay in the OpenAPI document; a
    path none of them takes is refused as the calculator's catch-all refuses it."""
    endpoints = {
        route.path: route.endpoint
        for router in routers
        for route in router.routes
        if isinstance(route, APIRoute) and "POST" in (route.methods or ()) and "{" not in route.path
    }

    async def calculation(request: Request) -> Response:
        system_id, name = request.path_params["system_id"], request.path_params["calculation"]
        endpoint = endpoints.get(f"/api/v1/systems/{system_id}/{name}")
        if endpoint is None:
            refuse(systems, system_id, name, request)
        response: Response = await endpoint(request)
        return response

    router = APIRouter(include_in_schema=False)
    router.add_route(CALCULATION, calculation, methods=["POST"])
    return router


def json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI request body of a route that parses its body itself (see `parse`)."""
    schema = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


# A body this large (a roster of many custom units: ~0.3 s of CPU at 0.9 MB) is parsed and
# computed in a worker thread, at most HEAVY_AT_ONCE at a time, so that it cannot stall the
# event loop and every other request with it; small ones stay on the loop (no thread hop).
OFFLOAD_BYTES = 64_000
HEAVY_AT_ONCE = anyio.CapacityLimiter(1)


# The engines are pure and a process serves one catalogue version: a body already answered
# gets the same bytes again (tools re-validate the same list as its user edits it). Bounded
# in bytes per route; bodies are keyed by their SHA-256, heavy ones are not kept. An answer
# is kept from its body's second sight on (ANSWER_KEYS bodies seen once are remembered):
# an editor's stream of lists, each sent once, neither pays for keeping its answers nor
# pushes out those of the bodies that do come back.
ANSWERS_BYTES = 8 * 1024 * 1024
ANSWER_KEYS = 1024


async def calculate(
    request: Request,
    model: type[ModelT],
    compute: Callable[[ModelT], BaseModel],
    answers: Memo[bytes] | None = None,
    process_job: tuple[str, str] | None = None,
) -> Response:
    """`compute` of the body parsed as `model`: a body seen before from `answers`, a heavy
    one off the event loop (in the app's worker processes when it has some and
    `process_job`, (system id, calculation name), says which they know)."""
    require_json(request)
    body = await request.body()
    if len(body) >= OFFLOAD_BYTES:
        # Bounded and taken in turn, client by client (heavy.HeavyQueue): past its bound,
        # a 503 with Retry-After.
        client = request.client.host if request.client else "unknown"
        try:
            async with request.app.state.heavy_queue.slot(client):
                return await _heavy(request, body, model, compute, process_job)
        except heavy.QueueFull as full:
            raise heavy.busy(full.retry_after) from None
    key = hashlib.sha256(body).digest()
    known = answers.get(key) if answers is not None else None
    if known is None:
        known = computed(body, model, compute)
        if answers is not None:
            answers.put(key, known)
    return Response(known, media_type="application/json")


async def _heavy(
    request: Request,
    body: bytes,
    model: type[ModelT],
    compute: Callable[[ModelT], BaseModel],
    process_job: tuple[str, str] | None,
) -> Response:
    """A heavy body in the app's worker processes, or in a thread when it has none or they
    do not know the calculation."""
    state = request.app.state
    if getattr(state, "heavy_pool", None) is not None and process_job is not None:
        return await heavy.answered(state, *process_job, body, accepts_gzip(request.headers))
    answer = await anyio.to_thread.run_sync(computed, body, model, compute, limiter=HEAVY_AT_ONCE)
    return Response(answer, media_type="application/json")


@dataclass(frozen=True)
class Calculation:
    """A stateless POST route of a system: a body model in, a model out (the calculator's
    cost, validate and score, and a system's own routes such as No Limits' building)."""

    name: str  # the last path segment; the operation id is <system id>_<name>
    body: type[BaseModel]
    compute: Callable[[Any], BaseModel]
    response: type[BaseModel]
    summary: str = ""  # default: the first line of `compute`'s docstring
    description: str | None = None  # default: the rest of it

    def documented(self) -> tuple[str, str | None]:
        """The route's summary and description: given, else `compute`'s docstring."""
        doc = inspect.getdoc(self.compute) or self.name
        first, _, rest = doc.partition("\n\n")
        return self.summary or " ".join(first.split()), self.description or rest or None


def _endpoint(
    calculation: Calculation, process_job: tuple[str, str] | None = None
) -> Callable[[Request], Awaitable[Response]]:
    answers: Memo[bytes] = Memo(ANSWERS_BYTES, second_sight=ANSWER_KEYS)

    async def endpoint(request: Request) -> Response:
        return await calculate(request, calculation.body, calculation.compute, answers, process_job)

    return endpoint


def add_calculations(
    router: APIRouter,
    system_id: str,
    system_name: str,
    calculations: Sequence[Calculation],
    *,
    core: bool = False,
) -> None:
    """Each calculation as POST <router prefix>/<system_id>/<name>, documented by reference."""
    for calculation in calculations:
        summary, description = calculation.documented()
        # The system's own cost, validate and score are known to the worker processes;
        # an extension's routes (spec.api) compute heavy bodies in a thread.
        known = core and calculation.name in heavy.OFFLOADED
        router.add_api_route(
            f"/{system_id}/{calculation.name}",
            _endpoint(calculation, (system_id, calculation.name) if known else None),
            methods=["POST"],
            tags=[system_id],
            responses=PROBLEMS,
            response_model=calculation.response,
            openapi_extra=json_body(calculation.body),
            summary=f"{system_name}: {summary}",
            description=description,
            operation_id=f"{system_id}_{calculation.name}",
        )


def extension(
    system: AnySystem, *calculations: Calculation
) -> tuple[APIRouter, list[type[BaseModel]]]:
    """A system's own API routes (its spec's `api`), and the bodies they parse."""
    router = APIRouter(prefix="/api/v1/systems")
    add_calculations(router, system.id, system.name, calculations)
    return router, [calculation.body for calculation in calculations]


def _add_system_routes(router: APIRouter, system: AnySystem) -> None:
    # The engines are pure and fast (tens of microseconds for a fighter): these handlers run
    # on the event loop unless the body is heavy (see `calculate`), and answer with the
    # model's own JSON (it is the response model).
    catalogue_json: list[bytes] = []

    async def catalogue() -> Response:
        if not catalogue_json:
            catalogue_json.append(system.catalogue().model_dump_json().encode())
        return Response(catalogue_json[0], media_type="application/json")

    router.add_api_route(
        f"/{system.id}/catalogue",
        catalogue,
        methods=["GET"],
        tags=[system.id],
        response_model=example_typed(system),
        summary=f"{system.name}: catalogue",
        operation_id=f"{system.id}_catalogue",
    )
    calculations = [
        Calculation(
            "cost", system.unit_model, system.cost, system.cost_response_model, "cost one unit"
        ),
        Calculation(
            "validate",
            system.roster_model,
            system.validate,
            system.validate_response_model,
            "validate a roster",
        ),
    ]
    if system.score_model is not None:  # None: the system has no end-of-game score
        calculations.append(
            Calculation("score", system.score_model, system.score, ScoreResult, "end-of-game score")
        )
    add_calculations(router, system.id, system.name, calculations, core=True)

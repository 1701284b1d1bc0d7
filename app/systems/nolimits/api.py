"""No Limits' own API extension: a building's profile from the materials table (L277-282)."""

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app.api.v1.systems import PROBLEMS, json_body, json_response, parse
from app.systems.nolimits import NolimitsSystem
from app.systems.nolimits.rules import BuildingProfile


def nolimits_router(system: NolimitsSystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    router = APIRouter(prefix="/api/v1/systems/nolimits", tags=["nolimits"])

    async def building(request: Request) -> Response:
        return json_response(system.building(await parse(request, system.building_model)))

    router.add_api_route(
        "/building",
        building,
        methods=["POST"],
        responses=PROBLEMS,
        response_model=BuildingProfile,
        summary="No Limits: a building's EN, SV and PV",
        operation_id="nolimits_building",
        openapi_extra=json_body(system.building_model),
    )
    return router, [system.building_model]

"""Necromunda–Warzone's own API extension: the shooting helper (L38-49)."""

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app.api.v1.systems import PROBLEMS, json_body, json_response, parse
from app.systems.necrowarzone import NecrowarzoneSystem
from app.systems.necrowarzone.shooting import NecrowarzoneShotRequest, NecrowarzoneShotResult


def necrowarzone_router(system: NecrowarzoneSystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    router = APIRouter(prefix="/api/v1/systems/necrowarzone", tags=["necrowarzone"])

    async def shooting(request: Request) -> Response:
        return json_response(system.shoot(await parse(request, NecrowarzoneShotRequest)))

    router.add_api_route(
        "/shooting",
        shooting,
        methods=["POST"],
        responses=PROBLEMS,
        response_model=NecrowarzoneShotResult,
        summary="Necromunda–Warzone: the score a shot needs",
        description="The to-hit table (L38-39) and the shooting modifiers (L40-49): one "
        "cover modifier at most, Se mettre à couvert counted once. Issue codes: "
        "several_cover_modifiers, took_cover_without_cover, duplicate_modifier (warnings), "
        "small_and_large_target (error).",
        operation_id="necrowarzone_shooting",
        openapi_extra=json_body(NecrowarzoneShotRequest),
    )
    return router, [NecrowarzoneShotRequest]

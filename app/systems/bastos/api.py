"""Bastos' own API extension: « Quelles sont mes chances ? », one test answered exactly."""

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app.api.v1.systems import PROBLEMS, json_body, json_response, parse
from app.systems.bastos import BastosOddsAnswer, BastosOddsQuery, BastosSystem

DESCRIPTION = """One test for one figure in one situation, chosen by `test`: `rep_test`,
`activation`, a reaction table (`fast_move`, `in_sight`, `received_fire`, `charge`, `charged`,
`stunned_recovery`, `rally`, `end_of_game_recovery`), `shooting`, `wound`, `jam`, `melee`,
`zombie_wound`, `zombie_melee`, `zombie_appears`. Every outcome comes with its exact
probability (a fraction in lowest terms, as a string) and the same rounded to 4 places.
A query the rules cannot answer (a weapon without a rate asked to shoot, more dice than its
rate) answers 200 with an error issue: `weapon_cannot_shoot`, `dice_over_rate`."""


def bastos_router(system: BastosSystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    router = APIRouter(prefix="/api/v1/systems/bastos", tags=["bastos"])

    async def chances(request: Request) -> Response:
        return json_response(system.odds(await parse(request, BastosOddsQuery)))

    router.add_api_route(
        "/odds",
        chances,
        methods=["POST"],
        responses=PROBLEMS,
        response_model=BastosOddsAnswer,
        summary="Pour quelques bastos de plus: the exact odds of one test",
        description=DESCRIPTION,
        operation_id="bastos_odds",
        openapi_extra=json_body(BastosOddsQuery),
    )
    return router, [BastosOddsQuery]

"""DCSystem's own API extension: the odds of a pool of dice (api-v1 « Odds »)."""

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.v1.systems import Calculation, extension
from app.systems.base import AnySystem
from app.systems.dcsystem.odds import DcsystemOddsRequest, DcsystemOddsResponse, dcsystem_odds


def dcsystem_router(system: AnySystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    return extension(
        system, Calculation("odds", DcsystemOddsRequest, dcsystem_odds, DcsystemOddsResponse)
    )

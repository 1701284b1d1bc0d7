"""No Limits' own API extension: a building's profile from the materials table (L277-282)."""

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.v1.systems import Calculation, extension
from app.systems.nolimits import NolimitsSystem
from app.systems.nolimits.rules import NolimitsBuildingProfile


def nolimits_router(system: NolimitsSystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    body = system.building_model
    return extension(
        system, Calculation("building", body, system.building, NolimitsBuildingProfile)
    )

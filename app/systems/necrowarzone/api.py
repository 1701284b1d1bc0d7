"""Necromunda–Warzone's own API extension: the shooting helper (L38-49)."""

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.v1.systems import Calculation, extension
from app.systems.necrowarzone import NecrowarzoneSystem
from app.systems.necrowarzone.shooting import NecrowarzoneShotRequest, NecrowarzoneShotResult

DESCRIPTION = (
    "The to-hit table (L38-39) and the shooting modifiers (L40-49): one cover modifier at "
    "most, Se mettre à couvert counted once. Issue codes: several_cover_modifiers, "
    "took_cover_without_cover, duplicate_modifier (warnings), small_and_large_target (error)."
)


def necrowarzone_router(system: NecrowarzoneSystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    shooting = Calculation(
        "shooting",
        NecrowarzoneShotRequest,
        system.shoot,
        NecrowarzoneShotResult,
        "the score a shot needs",
        DESCRIPTION,
    )
    return extension(system, shooting)

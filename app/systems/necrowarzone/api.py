"""Necromunda–Warzone's own API extension: the shooting helper (L38-49)."""

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.v1.systems import Calculation, extension
from app.systems.necrowarzone import NecrowarzoneSystem
from app.systems.necrowarzone.shooting import NecrowarzoneShotRequest, NecrowarzoneShotResult


def necrowarzone_router(system: NecrowarzoneSystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    body, answer = NecrowarzoneShotRequest, NecrowarzoneShotResult
    return extension(system, Calculation("shooting", body, system.shoot, answer))

"""Bastos' own API extension: « Quelles sont mes chances ? », one test answered exactly."""

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.v1.systems import Calculation, extension
from app.systems.bastos import BastosOddsAnswer, BastosOddsQuery, BastosSystem


def bastos_router(system: BastosSystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    return extension(system, Calculation("odds", BastosOddsQuery, system.odds, BastosOddsAnswer))

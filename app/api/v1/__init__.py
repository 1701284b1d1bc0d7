"""The JSON API v1: the calculator of every system, stored rosters, shares, extensions."""

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.v1.nolimits import nolimits_router
from app.api.v1.rosters import rosters_router
from app.api.v1.systems import systems_router
from app.systems.base import GameSystem

# System id -> routes only that system has (under /api/v1/systems/<id>/), with the request
# bodies they parse themselves (documented by reference in the OpenAPI document).
EXTENSIONS: dict[str, Callable[[Any], tuple[APIRouter, list[type[BaseModel]]]]] = {
    "nolimits": nolimits_router,
}


def api_routers(
    systems: dict[str, GameSystem],
) -> tuple[list[APIRouter], list[type[BaseModel]]]:
    """The routers in matching order (extensions before the catch-all of `systems_router`),
    and every request body model the calculator routes parse themselves."""
    bodies = [m for s in systems.values() for m in (s.unit_model, s.roster_model, s.score_model)]
    extensions = []
    for system in systems.values():
        if system.id in EXTENSIONS:
            router, models = EXTENSIONS[system.id](system)
            extensions.append(router)
            bodies += models
    return [*extensions, systems_router(systems), rosters_router(systems)], bodies

"""The JSON API v1: the calculator of every system, stored rosters, shares, extensions."""

from collections.abc import Mapping, Sequence

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.v1.books import book_types, books_router
from app.api.v1.campaigns import campaigns_router
from app.api.v1.carnet_file import carnet_file_router
from app.api.v1.imports import imports_router
from app.api.v1.rosters import rosters_router
from app.api.v1.systems import calculations_router, systems_router
from app.systems.base import AnySystem
from app.systems.spec import SystemSpec


def api_routers(
    systems: Mapping[str, AnySystem], specs: Sequence[SystemSpec]
) -> tuple[list[APIRouter], list[APIRouter], list[type[BaseModel]]]:
    """The calculator's routers in matching order (its POST routes taken by one route
    first, for main.py to try early; the extensions before the catch-all of
    `systems_router`), the stored resources' (rosters, books, campaigns), and every request
    body model the calculator routes parse themselves."""
    bodies: list[type[BaseModel]] = []
    for system in systems.values():
        bodies += [system.unit_model, system.roster_model]
        if system.score_model is not None:
            bodies.append(system.score_model)
    extensions = []
    for spec in specs:
        if spec.api is not None and spec.id in systems:
            router, models = spec.api(systems[spec.id])
            extensions.append(router)
            bodies += models
    routers = [*extensions, systems_router(dict(systems))]
    # Their POST routes taken at once by one route first (`calculations_router`).
    calculator = [calculations_router(routers, systems), *routers]
    books = book_types(dict(systems))
    stored = [
        rosters_router(dict(systems)),
        books_router(books),
        campaigns_router(dict(systems)),
        carnet_file_router(dict(systems), books),
        imports_router(dict(systems)),
    ]
    return calculator, stored, bodies

"""Bastos' own API extension: « Quelles sont mes chances ? », one test answered exactly."""

from fastapi import APIRouter
from pydantic import BaseModel

from app.api.v1.systems import Calculation, extension
from app.systems.bastos import BastosOddsAnswer, BastosOddsQuery, BastosSystem

DESCRIPTION = """One test for one figure in one situation, chosen by `test`: `rep_test`,
`activation`, a reaction table (`fast_move`, `in_sight`, `received_fire`, `charge`, `charged`,
`stunned_recovery`, `rally`, `end_of_game_recovery`), `shooting`, `wound`, `jam`, `melee`,
`zombie_wound`, `zombie_melee`, `zombie_appears`. Every outcome comes with its exact
probability (a fraction in lowest terms, as a string) and the same rounded to 4 places.
A query the rules cannot answer (a weapon without a rate asked to shoot, more dice than its
rate) answers 200 with an error issue: `weapon_cannot_shoot`, `dice_over_rate`."""


def bastos_router(system: BastosSystem) -> tuple[APIRouter, list[type[BaseModel]]]:
    odds = Calculation(
        "odds",
        BastosOddsQuery,
        system.odds,
        BastosOddsAnswer,
        "the exact odds of one test",
        DESCRIPTION,
    )
    return extension(system, odds)

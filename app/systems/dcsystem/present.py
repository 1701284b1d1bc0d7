"""What the DCSystem API shows: the catalogue (every item with id, name, kind), and the
dice as badges for summaries and exports."""

from typing import Literal

from pydantic import BaseModel

from app.systems.base import Badge, CostLine
from app.systems.catalogued import CatalogueOut, ExampleOut, ItemOut, PricedOut
from app.systems.dcsystem.catalogue import DcsystemDice
from app.systems.dcsystem.engine import DICE_LABELS
from app.systems.dcsystem.roster import DcsystemRosterBase

# Forum-safe colours of the dice (white dice are shown grey on a white page).
DICE_COLOURS = {"red": "#c0392b", "blue": "#1f5fa8", "white": "#7f8c8d", "yellow": "#b7950b"}


class DcsystemLevelOut(BaseModel):
    level: int
    points: int
    dice: DcsystemDice
    slots: int
    handicaps: int


class DcsystemItemOut(PricedOut):
    kind: Literal["capacite", "equipement", "handicap"]
    brings: str | None = None


class DcsystemHiddenMoveOut(PricedOut):
    kind: Literal["coup_cache"] = "coup_cache"


class DcsystemUnitOut(ItemOut):
    kind: Literal["profil"] = "profil"
    army: str
    level: int
    points: int
    computed_points: int
    discrepancies: list[str]
    items: list[str]
    dice: DcsystemDice | None
    computed_dice: DcsystemDice
    breakdown: list[CostLine]
    variant_of: str | None
    note: str
    source: str


class DcsystemArmyOut(ItemOut):
    kind: Literal["armee"] = "armee"
    units: list[str]
    source: str


class DcsystemExampleOut(ExampleOut[DcsystemRosterBase]):
    """A battle sheet printed in the army lists, with the total it prints."""


class DcsystemCatalogue(CatalogueOut):
    system: Literal["dcsystem"] = "dcsystem"
    levels: list[DcsystemLevelOut]
    items: list[DcsystemItemOut]
    hidden_moves: list[DcsystemHiddenMoveOut]
    armies: list[DcsystemArmyOut]
    units: list[DcsystemUnitOut]
    examples: list[DcsystemExampleOut]


def dice_badges(dice: DcsystemDice) -> list[Badge]:
    badges = []
    for colour, plural in DICE_LABELS.items():
        count = getattr(dice, colour)
        if count:
            label = plural if count > 1 else plural.removesuffix("s")
            badges.append(
                Badge(text=f"{count} {label}", kind=f"dice-{colour}", colour=DICE_COLOURS[colour])
            )
    return badges

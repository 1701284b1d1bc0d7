"""The questions the odds panel asks: one test, one figure, one situation.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, Field, RootModel

from app.systems.base import INPUT, Between, Integral
from app.systems.bastos.engine import WeaponRef
from app.systems.bastos.reactions import TableId
from app.systems.bastos.zombies import ShotCase

Rep = Annotated[int, Between(0, 10)]


class Query(BaseModel):
    model_config = INPUT


class BastosRepTestQuery(Query):
    test: Literal["rep_test"]
    rep: Rep
    leader_die: bool = False


class BastosActivationQuery(Query):
    test: Literal["activation"]
    rep: Rep
    players: Annotated[int, Between(2, 6)] = 2


class BastosReactionQuery(Query):
    """A table read on 2, 1 or 0 successes, in the situation its lines ask about."""

    test: TableId
    rep: Rep
    leader: bool = False
    star: bool = False
    activated_by_leader: bool = False
    in_cover: bool = False
    outgunned: bool = False
    fast_moving: bool = False
    cover_within_7_5cm: bool = False
    flank_or_rear: bool = False
    in_building: bool = False
    fled: bool = False


class BastosShootingQuery(Query):
    test: Literal["shooting"]
    rep: Rep = Field(description="The Rep the shot is fired at (Rep -1 included).")
    weapon: WeaponRef
    dice: Annotated[int, Between(1, 3)] | None = Field(
        None, description="Null: the weapon's full rate."
    )
    cover: bool = False
    prone: bool = False
    fast_move: bool = False
    target_rank: Annotated[Literal[1, 2, 3], Integral] = 1


class BastosWoundQuery(Query):
    test: Literal["wound"]
    weapon: WeaponRef


class BastosJamQuery(Query):
    test: Literal["jam"]
    dice: Annotated[int, Between(1, 6)]


class BastosMeleeSide(Query):
    rep: Rep
    leader: bool = False
    weapon: WeaponRef | None = None
    enemies_in_contact: Annotated[int, Between(1, 10)] = 1
    flank_first_round: bool = False


class BastosMeleeQuery(Query):
    test: Literal["melee"]
    figure: BastosMeleeSide
    opponent: BastosMeleeSide


class BastosZombieWoundQuery(Query):
    test: Literal["zombie_wound"]
    rep: Rep
    weapon: WeaponRef
    case: ShotCase


class BastosZombieMeleeQuery(Query):
    test: Literal["zombie_melee"]
    rep: Rep
    zombies: Annotated[int, Between(1, 6)] = 1
    weapon: WeaponRef | None = None


class BastosZombieAppearsQuery(Query):
    test: Literal["zombie_appears"]
    infestation: Annotated[Literal[1, 2, 3], Integral] = 2


OddsQuery = Annotated[
    BastosRepTestQuery
    | BastosActivationQuery
    | BastosReactionQuery
    | BastosShootingQuery
    | BastosWoundQuery
    | BastosJamQuery
    | BastosMeleeQuery
    | BastosZombieWoundQuery
    | BastosZombieMeleeQuery
    | BastosZombieAppearsQuery,
    Field(discriminator="test"),
]


class BastosOddsQuery(RootModel[OddsQuery]):
    """The body of POST /api/v1/systems/bastos/odds: one test, chosen by `test`."""

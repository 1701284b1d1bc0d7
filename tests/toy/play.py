"""The toy at the table (app/systems/play_traits.py): a tin soldier stands or is knocked
over, loses his strength point by point (none left: knocked over), and half the squad down
calls for a rout test. The numbers are read from the share's frozen validation."""

from app.systems.play_traits import (
    Counter,
    FigureState,
    FigureTraits,
    Played,
    PlayTraits,
    RoutTest,
)
from app.systems.sheet import SheetEntry


def figure(played: Played, entry: SheetEntry) -> FigureTraits:
    result = played.entry_result(entry)
    derived = result.get("derived") if result else None
    strength = derived.get("strength") if isinstance(derived, dict) else None
    if not isinstance(strength, int) or strength < 1:
        return FigureTraits()
    return FigureTraits(counters=(Counter("strength", "Force perdue", strength, out=True),))


def rout(played: Played) -> int | None:
    figures = played.list_derived().get("figures")
    return (figures + 1) // 2 if isinstance(figures, int) and figures > 0 else None


PLAY = PlayTraits(
    states=(FigureState("Debout"), FigureState("Renversé", out=True)),
    figure=figure,
    rout=RoutTest(rout, "renversés"),
)

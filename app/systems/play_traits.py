"""What a system declares for the play sheet and the mode partie (`SystemSpec.play`).

As Gymnasium's environments declare their `metadata` and `check_env` reads it, a system
says here what the shared play pages need of it; app/web/play.py reads these traits and
names no system, and the conformance check (app/systems/conformance.py) holds every trait
to its shape on the system's example rosters. docs/systems.md « Play traits » says what each
field means and what a panel's template receives.

Every callable takes a `Played`: the engine, the share's frozen snapshot (its `roster`,
`validation` and `summary`) and the sheet built from it. The numbers come from the
system's own models (the frozen validation, its catalogue), never from a display label.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.systems.base import AnySystem
from app.systems.sheet import Sheet, SheetEntry


@dataclass(frozen=True)
class Played:
    """What the system's play traits read: its engine, the frozen snapshot, its sheet."""

    engine: AnySystem
    snapshot: Mapping[str, Any]
    sheet: Sheet

    def entry_result(self, entry: SheetEntry) -> dict[str, Any] | None:
        """The frozen validation of the roster entry a sheet card shows (None: an old share
        whose lines do not say their entry, or a validation of another shape)."""
        validation = self.snapshot.get("validation")
        results = validation.get("entries") if isinstance(validation, dict) else None
        if entry.entry is None or not isinstance(results, list) or entry.entry >= len(results):
            return None
        found = results[entry.entry]
        return found if isinstance(found, dict) else None

    def list_derived(self) -> dict[str, Any]:
        """The frozen validation's `derived` of the whole list (empty when absent)."""
        validation = self.snapshot.get("validation")
        derived = validation.get("derived") if isinstance(validation, dict) else None
        return derived if isinstance(derived, dict) else {}


@dataclass(frozen=True)
class FigureState:
    """A state a figure is in, as a button of the mode partie (« Sonné »)."""

    label: str
    out: bool = False  # the figure is out of the game in this state


@dataclass(frozen=True)
class Counter:
    """Something a figure loses one by one (PV, red dice), up to `max`."""

    id: str  # a CSS-friendly id, unique on the figure
    label: str  # « PV perdus »
    max: int  # at least 1
    out: bool = False  # reaching `max` takes the figure out of the game


@dataclass(frozen=True)
class FigureTraits:
    """What the mode partie tracks on each figure of one sheet card."""

    counters: tuple[Counter, ...] = ()
    # What taking one such figure out is worth to the opponent's end-of-game score (its
    # level, in DCSystem); 0 when the system keeps no such score.
    worth: int = 0


@dataclass(frozen=True)
class Panel:
    """A reference the sheet and the mode partie print under their cards (an odds table).

    `build` returns the plain data the panel shows (dicts, lists, strings, numbers), or None
    when the list has nothing to show in it; `template` is a file of templates/systems/<id>/
    rendering it (it receives `panel`: what `build` returned, and `sheet`)."""

    id: str  # snake_case, unique among the system's panels
    template: str  # « odds_table.html »: under templates/systems/<id>/
    build: Callable[[Played], dict[str, Any] | None]


@dataclass(frozen=True)
class RoutTest:
    """A test the side takes once enough of its figures are down: the mode partie counts the
    figures out of the game or in the second of the `states`, and warns at the threshold."""

    threshold: Callable[[Played], int | None]  # None: no test for this list
    counts: str  # what the count is of, as the page says it: « au tapis ou hors de combat »
    source: str = ""  # the rule's lines: « L84 »


@dataclass(frozen=True)
class OpponentScore:
    """The opponent scores the `worth` of each figure out of the game, at the end."""

    source: str = ""  # the rule's lines: « L310-312 »


def no_figure_traits(played: Played, entry: SheetEntry) -> FigureTraits:
    return FigureTraits()


@dataclass(frozen=True)
class PlayTraits:
    """What the play sheet and the mode partie need of a system (all optional).

    `states`: the states a figure goes through, the first being the one it starts in (none:
    the mode partie shows no state buttons). `figure`: each card's counters and worth.
    `rout`: the rout test, if the system has one. `panels`: the references printed under
    the cards. `opponent_score`: when given, the mode partie adds up the `worth` of the
    figures out as the opponent's end-of-game score."""

    states: tuple[FigureState, ...] = ()
    figure: Callable[[Played, SheetEntry], FigureTraits] = no_figure_traits
    rout: RoutTest | None = None
    panels: tuple[Panel, ...] = ()
    opponent_score: OpponentScore | None = None


NO_PLAY_TRAITS = PlayTraits()


def fraction_text(value: Fraction) -> str:
    """An exact chance as a panel prints it: « 11/36 », « 1 », « 0 »."""
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value)


def percent(value: Fraction) -> str:
    """A chance as a rounded percentage: « 31 % »."""
    return f"{round(float(value) * 100)} %"

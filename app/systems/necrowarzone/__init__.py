"""Necromunda–Warzone, an alternate-activation sequence for Necromunda gangs (`necrowarzone`).

The text prices nothing: `has_points` is false, costs are 0 with an empty breakdown, and
summaries show the gang's totals (figures, actions, XP, initiative, rout, command radius).
"""

from collections.abc import Sequence
from functools import partial
from typing import Any

from app.systems.base import NoScore, PublishedProfile, SummaryLine, Total
from app.systems.building import build_engine
from app.systems.catalogued import CatalogueSystem
from app.systems.memo import entry_keys, json_key
from app.systems.necrowarzone.catalogue import Catalogue
from app.systems.necrowarzone.catalogue_checks import cross_check
from app.systems.necrowarzone.models import (
    NecrowarzoneFigure,
    NecrowarzoneProfile,
    NecrowarzoneRosterBase,
    NecrowarzoneWeapon,
)
from app.systems.necrowarzone.present import (
    NecrowarzoneCatalogue,
    NecrowarzoneExampleOut,
    catalogue_parts,
    gang_totals,
    summary_line,
)
from app.systems.necrowarzone.rosters import (
    NecrowarzoneEntryResult,
    NecrowarzoneGangDerived,
    NecrowarzoneResult,
    entry_figure,
    example_document,
    validate_roster,
)
from app.systems.necrowarzone.rules import (
    NecrowarzoneFigureCost,
    NecrowarzoneFigureDerived,
    cost_figure,
)
from app.systems.necrowarzone.shooting import (
    NecrowarzoneShotModifierLine,
    NecrowarzoneShotRequest,
    NecrowarzoneShotResult,
    needed_to_hit,
)

__all__ = [
    "Catalogue",
    "NecrowarzoneFigure",
    "NecrowarzoneFigureCost",
    "NecrowarzoneFigureDerived",
    "NecrowarzoneGangDerived",
    "NecrowarzoneProfile",
    "NecrowarzoneResult",
    "NecrowarzoneShotModifierLine",
    "NecrowarzoneShotRequest",
    "NecrowarzoneShotResult",
    "NecrowarzoneSystem",
    "NecrowarzoneWeapon",
    "build",
    "cost_figure",
    "example_document",
    "needed_to_hit",
    "validate_roster",
]


class NecrowarzoneSystem(
    CatalogueSystem[
        Catalogue,
        NecrowarzoneFigure,
        NecrowarzoneRosterBase,
        NoScore,
        NecrowarzoneFigureCost,
        NecrowarzoneResult,
    ]
):
    """The Necromunda–Warzone engine, built from its checked catalogue."""

    id = "necrowarzone"
    unit_list = "figures"
    has_points = False
    shot_model = NecrowarzoneShotRequest

    def cost(self, unit: NecrowarzoneFigure, /) -> NecrowarzoneFigureCost:
        return cost_figure(self.data, unit)

    def validate(self, roster: NecrowarzoneRosterBase, /) -> NecrowarzoneResult:
        return validate_roster(self.data, roster, self._entries)

    def unit_name(self, roster: NecrowarzoneRosterBase, entry: Any) -> str | None:
        return entry_figure(self.data, entry)[1]

    def shoot(self, request: NecrowarzoneShotRequest, /) -> NecrowarzoneShotResult:
        """The score a shot needs (the shooting helper).

        The to-hit table (L38-39) and the shooting modifiers (L40-49): one cover modifier at
        most, Se mettre à couvert counted once. Issue codes: several_cover_modifiers,
        took_cover_without_cover, duplicate_modifier (warnings), small_and_large_target
        (error)."""
        return needed_to_hit(self.data, request)

    def build_catalogue(self) -> NecrowarzoneCatalogue:
        examples = self.example_outputs(
            NecrowarzoneExampleOut,
            lambda roster: {"derived": self.validate(roster).derived},  # type: ignore[arg-type]
        )
        return NecrowarzoneCatalogue(
            **self.catalogue_header(),
            examples=examples,
            **catalogue_parts(self.data),
        )

    def published_profiles(self) -> Sequence[PublishedProfile]:
        return [
            PublishedProfile.agreeing(
                sample.id, sample.name, 0, sample.figure.model_dump(mode="json")
            )
            for sample in self.data.figures
        ]

    def example_documents(self) -> list[dict[str, Any]]:
        return [example_document(example) for example in self.data.examples]

    def summary_lines(
        self, roster: NecrowarzoneRosterBase, result: NecrowarzoneResult
    ) -> list[SummaryLine]:
        # A line is a function of its entry and the entry's result (app/systems/memo.py).
        keys = entry_keys(roster.entries)
        return [
            self._lines(
                (keys[index], json_key(entry_result)),
                partial(self._line, entry, entry_result),
            )
            for index, (entry, entry_result) in enumerate(
                zip(roster.entries, result.entries, strict=True)
            )
        ]

    def _line(self, entry: Any, entry_result: NecrowarzoneEntryResult) -> SummaryLine:
        return summary_line(entry_figure(self.data, entry)[0], entry_result)

    def totals(self, roster: NecrowarzoneRosterBase, result: NecrowarzoneResult) -> list[Total]:
        return gang_totals(result)


def build(data: dict[str, Any]) -> NecrowarzoneSystem | list[str]:
    """The engine, or every problem found in the catalogue data."""
    return build_engine(data, Catalogue, cross_check, NecrowarzoneSystem)

"""Pour quelques bastos de plus (`bastos`): no points, a figure sheet of exact dice odds."""

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from app.systems.base import PublishedProfile, SummaryLine, Total
from app.systems.bastos.catalogue import Catalogue, cross_check, load_catalogue
from app.systems.bastos.engine import (
    BastosFigure,
    BastosFigureCost,
    BastosFigureDerived,
    BastosWeaponOut,
    cost_figure,
)
from app.systems.bastos.odds import BastosOddsAnswer, odds
from app.systems.bastos.present import (
    OPTIONAL_RULES,
    BastosCatalogue,
    BastosExampleOut,
    BastosFigureOut,
    BastosOptionalRuleOut,
    BastosRepOut,
    BastosWeaponItem,
    figure_definition,
    summary_lines,
    summary_notes,
    totals,
)
from app.systems.bastos.queries import BastosOddsQuery, OddsQuery
from app.systems.bastos.roster import (
    BastosBandDerived,
    BastosEntryBase,
    BastosExtras,
    BastosResult,
    BastosRosterBase,
    example_document,
    validate_roster,
)
from app.systems.building import build_engine
from app.systems.catalogued import CatalogueSystem

__all__ = [
    "BastosBandDerived",
    "BastosCatalogue",
    "BastosEntryBase",
    "BastosExtras",
    "BastosFigure",
    "BastosFigureCost",
    "BastosFigureDerived",
    "BastosOddsAnswer",
    "BastosOddsQuery",
    "BastosResult",
    "BastosRosterBase",
    "BastosSystem",
    "BastosWeaponOut",
    "Catalogue",
    "OddsQuery",
    "build",
    "cost_figure",
    "cross_check",
    "example_document",
    "load_catalogue",
    "odds",
    "validate_roster",
]


class BastosSystem(
    CatalogueSystem[
        Catalogue, BastosFigure, BastosRosterBase, BaseModel, BastosFigureCost, BastosResult
    ]
):
    """Pour quelques bastos de plus, built from its checked catalogue: no points, no score."""

    id = "bastos"
    unit_list = "figures"
    has_points = False
    odds_model = BastosOddsQuery

    def __init__(self, catalogue: Catalogue) -> None:
        super().__init__(catalogue)
        # A sheet is a pure function of (rep, leader, star, weapon): bands repeat figures.
        self._cached_cost = lru_cache(maxsize=4096)(self._cost)

    def cost(self, unit: BastosFigure, /) -> BastosFigureCost:
        return self._cached_cost(unit.rep, unit.leader, unit.star, unit.weapon)

    def _cost(self, rep: int, leader: bool, star: bool, weapon: str | None) -> BastosFigureCost:
        figure = BastosFigure(rep=rep, leader=leader, star=star, weapon=weapon)
        return cost_figure(self.data, figure)

    def validate(self, roster: BastosRosterBase, /) -> BastosResult:
        return validate_roster(self.data, roster, self._entries)

    def unit_name(self, roster: BastosRosterBase, entry: Any) -> str | None:
        return self.data.figure(entry.unit).name

    def odds(self, query: BastosOddsQuery) -> BastosOddsAnswer:
        """The exact odds of one test, for one figure in one situation.

        « Quelles sont mes chances ? » One test chosen by `test`: `rep_test`, `activation`,
        a reaction table (`fast_move`, `in_sight`, `received_fire`, `charge`, `charged`,
        `stunned_recovery`, `rally`, `end_of_game_recovery`), `shooting`, `wound`, `jam`,
        `melee`, `zombie_wound`, `zombie_melee`, `zombie_appears`. Every outcome comes with
        its exact probability (a fraction in lowest terms, as a string) and the same rounded
        to 4 places. A query the rules cannot answer (a weapon without a rate asked to shoot,
        more dice than its rate) answers 200 with an error issue: `weapon_cannot_shoot`,
        `dice_over_rate`."""
        return odds(self.data, query.root)

    def build_catalogue(self) -> BastosCatalogue:
        data = self.data
        weapon_fields = {"id", "name", "range_cm", "rate", "spread_cm", "impact", "class_"}
        return BastosCatalogue(
            **self.catalogue_header(),
            weapons=[
                BastosWeaponItem.model_validate(
                    {**weapon.model_dump(include=weapon_fields), "source": weapon.source}
                )
                for weapon in data.weapons
            ],
            reps=[
                BastosRepOut(
                    id=f"rep_{level.rep}",
                    name=level.name,
                    rep=level.rep,
                    text=level.text,
                    source=level.source,
                )
                for level in data.reps
            ],
            figures=[
                BastosFigureOut(
                    **figure.model_dump(include={"id", "name", "rep", "leader", "star", "weapon"}),
                    definition=figure_definition(data, figure.id),
                    note=figure.note,
                    source=figure.source,
                )
                for figure in data.figures
            ],
            optional_rules=[
                BastosOptionalRuleOut(id=rule_id, name=name)
                for rule_id, name in OPTIONAL_RULES.items()
            ],
            examples=self.example_outputs(BastosExampleOut),
        )

    def published_profiles(self) -> Sequence[PublishedProfile]:
        """The text's figures, as samples to start from: no points, so 0 and 0."""
        return [
            PublishedProfile.agreeing(figure.id, figure.name, 0, definition.model_dump(mode="json"))
            for figure in self.data.figures
            if (definition := figure_definition(self.data, figure.id))
        ]

    def example_documents(self) -> list[dict[str, Any]]:
        return [example_document(self.data, example) for example in self.data.examples]

    def summary_lines(self, roster: BastosRosterBase, result: BastosResult) -> list[SummaryLine]:
        return summary_lines(self.data, roster, result, self._lines)

    def summary_notes(self, roster: BastosRosterBase, result: BastosResult) -> list[str]:
        return summary_notes(roster)

    def totals(self, roster: BastosRosterBase, result: BastosResult) -> list[Total]:
        return totals(result)


def build(data: dict[str, Any]) -> BastosSystem | list[str]:
    """The engine, or every problem found in the catalogue data."""
    return build_engine(data, Catalogue, cross_check, BastosSystem)

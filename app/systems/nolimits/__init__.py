"""No Limits (`nolimits`): players price their own miniatures with Caserne's points system.

The text (shared/rules/no-limits.fr.txt) announces an army creation system but prints none
of its tables: pricing.toml and docs/nolimits-points.md are Caserne's, built on what is
known of the original and calibrated on the text's profiles.

The package (docs/systems.md): catalogue.py (+ catalogue_checks.py) the data model of
catalogue.toml and pricing.toml; models.py what players send; pricing.py (+ weapons.py) the
cost of a model; rules.py armour, damage track, size, buildings; checks.py every issue;
rosters.py roster validation; present.py (+ summary.py) what the API and readers see;
score.py victory points; web.py, api.py, spec.py its pages and routes.
"""

from collections.abc import Sequence
from functools import partial
from typing import Any

from pydantic import ConfigDict, Field, create_model

from app.systems.base import (
    PROFILE_FIELDS,
    PublishedProfile,
    ScoreResult,
    SummaryLine,
    catalogue_id,
    integer,
)
from app.systems.building import build_engine, roster_document
from app.systems.catalogued import CatalogueSystem
from app.systems.memo import entry_keys, issues_key
from app.systems.nolimits.catalogue import Catalogue
from app.systems.nolimits.catalogue_checks import cross_check
from app.systems.nolimits.models import (
    BANDS,
    CHARACTERISTICS,
    NolimitsRosterBase,
    NolimitsUnitBase,
    input_models,
)
from app.systems.nolimits.present import NolimitsCatalogue, NolimitsExampleOut, catalogue_parts
from app.systems.nolimits.pricing import NolimitsCost, Pricer
from app.systems.nolimits.rosters import NolimitsEntryResult, NolimitsResult, validate_roster
from app.systems.nolimits.rules import NolimitsBuildingProfile, building_profile
from app.systems.nolimits.score import NolimitsScoreRequest, score
from app.systems.nolimits.summary import summary_lines

__all__ = ["BANDS", "CHARACTERISTICS", "NolimitsSystem", "build"]

COSTING_NOTE = (
    "Coûts calculés avec le système de points de Caserne : le texte de No Limits "
    "n'imprime pas ses tables de création d'armée."
)


class NolimitsSystem(
    CatalogueSystem[
        Catalogue,
        NolimitsUnitBase,
        NolimitsRosterBase,
        NolimitsScoreRequest,
        NolimitsCost,
        NolimitsResult,
    ]
):
    """The No Limits engine, built from its checked catalogue and pricing."""

    id = "nolimits"

    def __init__(self, catalogue: Catalogue) -> None:
        super().__init__(catalogue)
        models = input_models(
            weapon_ids=[weapon.id for weapon in catalogue.weapons],
            rule_ids=[rule.id for rule in catalogue.weapon_rules],
            ability_ids=[ability.id for ability in catalogue.abilities],
            profile_ids=[profile.id for profile in catalogue.profiles],
            unit_ids=[unit.id for unit in catalogue.units],
        )
        self.weapon_model, self.unit_model = models.weapon, models.unit
        self.entry_model, self.roster_model = models.entry, models.roster
        self.pricer = Pricer(catalogue)
        self.building_model = create_model(
            "NolimitsBuildingRequest",
            __config__=ConfigDict(strict=True, extra="forbid"),
            __doc__="A building of one material (table L277-282) and its measure in inches.",
            material=(catalogue_id([m.id for m in catalogue.materials], "material"), ...),
            size_in=(integer(1, 1000), Field(description="The building's measure in inches.")),
        )

    def cost(self, unit: NolimitsUnitBase, /) -> NolimitsCost:
        return self.pricer.cost(unit)

    def building(self, request: Any) -> NolimitsBuildingProfile:
        """A building's EN, SV and PV, from the materials table (L277-282)."""
        return building_profile(self.data, request.material, request.size_in)

    def validate(self, roster: NolimitsRosterBase, /) -> NolimitsResult:
        return validate_roster(self.pricer, roster, self._entries)

    def unit_name(self, roster: NolimitsRosterBase, entry: Any) -> str | None:
        return self.data.unit(entry.unit).name

    def score(self, request: NolimitsScoreRequest, /) -> ScoreResult:
        return score(self.data, request)

    def build_catalogue(self) -> NolimitsCatalogue:
        return NolimitsCatalogue(
            **self.catalogue_header(),
            examples=self.example_outputs(NolimitsExampleOut),
            **catalogue_parts(self.data),
        )

    def catalogue(self) -> NolimitsCatalogue:
        catalogue = super().catalogue()
        assert isinstance(catalogue, NolimitsCatalogue)
        return catalogue

    def published_profiles(self) -> Sequence[PublishedProfile]:
        catalogue = self.catalogue()
        return [
            PublishedProfile(
                **profile.model_dump(include=PROFILE_FIELDS),
                definition=profile.definition.model_dump(mode="json", exclude_defaults=True),
            )
            for profile in catalogue.profiles
        ]

    def example_documents(self) -> list[dict[str, Any]]:
        written = [
            [
                entry.model_dump(exclude_none=True, exclude_defaults=True)
                | {"unit": entry.unit, "count": entry.count}
                for entry in example.entries
            ]
            for example in self.data.examples
        ]
        return [
            roster_document(self.id, example, entries)
            for example, entries in zip(self.data.examples, written, strict=True)
        ]

    def summary_lines(
        self, roster: NolimitsRosterBase, result: NolimitsResult
    ) -> list[SummaryLine]:
        # An entry's result is a function of the entry, its index and the issues the list
        # adds (validate_roster), and so are its lines (app/systems/memo.py).
        return [
            line
            for index, (key, entry_result) in enumerate(
                zip(entry_keys(roster.entries), result.entries, strict=True)
            )
            for line in self._lines(
                (key, index, issues_key(entry_result.issues)),
                partial(self._entry_lines, index, entry_result),
            )
        ]

    def _entry_lines(self, index: int, entry: NolimitsEntryResult) -> list[SummaryLine]:
        return [
            line.model_copy(update={"entry": index})
            for line in summary_lines(self.data, index, entry)
        ]

    def summary_notes(self, roster: NolimitsRosterBase, result: NolimitsResult) -> list[str]:
        army = roster.extras.army
        return [f"Armée : {army}", COSTING_NOTE] if army else [COSTING_NOTE]


def build(data: dict[str, Any]) -> NolimitsSystem | list[str]:
    """The engine, or every problem found in the catalogue and pricing data."""
    return build_engine(data, Catalogue, cross_check, NolimitsSystem)

"""The Necromunda–Warzone catalogue: the shape of `data/systems/necrowarzone/catalogue.toml`.

Checked at start-up by `build` (`catalogue_checks.cross_check`), which reports every problem
at once.
Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

from functools import cached_property
from typing import Literal, cast, get_args

from pydantic import Field

from app.systems import building
from app.systems.building import CatalogueModel
from app.systems.necrowarzone.models import NecrowarzoneFigure

# The rows of the shooting table (L41-49) are referred to by these ids in requests.
CoverId = Literal["cible_partiellement_a_couvert", "cible_a_couvert"]
ConditionId = Literal[
    "cible_apparaissant_disparaissant_ou_en_charge",
    "cible_rapide",
    "petite_cible",
    "arme_lourde_sans_arc_bouter",
    "grande_cible",
]
ShootingModifierId = Literal[CoverId, ConditionId, "viser", "modificateur_arme"]
ModifierKind = Literal["couvert", "condition", "par_action", "arme"]

COVER_IDS: tuple[str, ...] = get_args(CoverId)
CONDITION_IDS: tuple[str, ...] = get_args(ConditionId)
# What kind each fixed id must have in the catalogue.
MODIFIER_KINDS: dict[str, ModifierKind] = {"viser": "par_action", "modificateur_arme": "arme"}
MODIFIER_KINDS.update({modifier_id: "couvert" for modifier_id in COVER_IDS})
MODIFIER_KINDS.update({modifier_id: "condition" for modifier_id in CONDITION_IDS})
TO_HIT_CT = range(1, 11)  # "CT----1 2 3 4 5 6 7 8 9 10" (L38)


class SystemInfo(building.SystemInfo):
    id: Literal["necrowarzone"]


class ActionBand(CatalogueModel):
    """One line of "NOMBRE D’ACTIONS DES PERSONNAGES" (L8-11); `xp_max` None for "401+"."""

    xp_min: int = Field(ge=0)
    xp_max: int | None = None
    actions: int = Field(ge=1)
    leader_actions: int = Field(ge=1)
    source: str
    text: str


class LightWound(CatalogueModel):
    """ "Blessure légère -1CC/-1CT/-1 Action (minimum 1)" (L78), per light wound."""

    cc: int
    ct: int
    actions: int
    minimum: int = Field(ge=0)
    source: str
    text: str


class ToHitScore(CatalogueModel):
    ct: int
    score: int


class ToHitTable(CatalogueModel):
    """ "Jet pour toucher" (L38-39): the score a CT needs."""

    source: str
    scores: list[ToHitScore]


class ShootingModifier(CatalogueModel):
    """One row of "Modificateurs de tir" (L41-49), as printed."""

    id: ShootingModifierId
    name: str
    kind: ModifierKind
    value: int = Field(description="Added to the roll; per action for Viser; ± for the weapon.")
    took_cover_value: int | None = Field(
        None, description="Cover only: the printed value once the target used Se mettre à couvert."
    )
    source: str
    text: str


class ShootingRules(CatalogueModel):
    source: str
    text: str
    modifiers: list[ShootingModifier]


class RoutRule(CatalogueModel):
    """Test de déroute when "25% ou plus d’un gang" is down or out (L84)."""

    percent: int = Field(gt=0, le=100)
    source: str
    text: str


class SampleFigure(CatalogueModel):
    """A ready-made figure (Caserne's own: the text prints no profile)."""

    id: str
    name: str
    figure: NecrowarzoneFigure
    source: str
    note: str = ""


class ExampleEntry(CatalogueModel):
    unit: str | None = None
    custom: NecrowarzoneFigure | None = None
    name: str | None = None
    count: int = Field(1, ge=1)


class Example(building.ExampleData):
    printed_total: int = Field(0, description="The text prints no gang, and no points.")
    entries: list[ExampleEntry]
    source: str
    expected_issue_codes: list[str] = []


class Catalogue(building.SystemCatalogue):
    system: SystemInfo
    action_bands: list[ActionBand] = Field(min_length=1)
    light_wound: LightWound
    to_hit: ToHitTable
    shooting: ShootingRules
    rout: RoutRule
    figures: list[SampleFigure] = []
    examples: list[Example] = []

    def band(self, xp: int) -> ActionBand:
        """The band of `xp`; XP below the table (an error) reads as the first band."""
        for band in self.action_bands:
            if band.xp_max is None or xp <= band.xp_max:
                return band
        return self.action_bands[-1]

    def to_hit_score(self, ct: int) -> int | None:
        """The table's score for `ct` (L38-39), None off the table."""
        return self.to_hit_scores.get(ct)

    def modifier(self, modifier_id: str) -> ShootingModifier:
        return cast(ShootingModifier, self.shooting.find("modifiers", modifier_id))

    def figure(self, figure_id: str) -> SampleFigure | None:
        return self.find("figures", figure_id) if self.has("figures", figure_id) else None

    # Plain dicts cached on the instance: pydantic private attributes are slower to read.
    @cached_property
    def to_hit_scores(self) -> dict[int, int]:
        return {row.ct: row.score for row in self.to_hit.scores}

"""What a system declares for campaigns (docs/systems.md « Campaign traits »): which of a
figure's numbers a battle line may change, whether it counts XP or Rep, which catalogue
figures a battle may turn into the player's own, and the templates its gang page shows.

The campaign feature (app/campaigns/, app/web/campaigns/, templates/campaign/) reads these
and names no system; `check_system` checks every trait a system declares."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from app.systems.base import AnySystem

# Catalogue unit id → {"name": ..., "custom": the player's own figure with the same numbers}.
CatalogueFigures = Callable[[AnySystem], dict[str, dict[str, Any]]]


@dataclass(frozen=True)
class FigureStat:
    """A number kept on the figure itself (not in its profile) that a battle may change:
    `name` is its key in the entry's `custom` figure; a player reads and types `label`
    (or `title`), e.g. « BL » for Necromunda–Warzone's `light_wounds`."""

    name: str
    label: str
    title: str

    @property
    def told(self) -> str:
        """As a refusal lists it: « BL (Blessures légères) »."""
        return f"{self.label} ({self.title})"


@dataclass(frozen=True)
class CampaignTraits:
    """A system's campaign traits; every field is optional (a system without any keeps
    a ledger of results, states and recruits only).

    `profile_stats`: the characteristics of the figure's `profile` a battle line may change.
    `stat_defaults`: what such a stat (or a figure stat) is worth when the stored figure
    leaves it out — its model's default (`model_defaults`); 0 when not given.
    `figure_stats`: numbers kept on the figure itself a battle line may change.
    `has_xp` / `has_rep`: a line may add XP to a figure / set its new Rep (the unit model
    has an `xp` / `rep` field).
    `catalogue_figures`: the catalogue figures a battle may turn into the player's own
    (a line giving one XP or a change copies its numbers into the entry's `custom`).
    `score_template` / `totals_template`: templates of templates/systems/<id>/, the
    end-of-game score's form fields (required when the system's engine has a score model:
    `score_model` None is the one way to say « no score ») and the line of totals under
    the gang's name (default: how many lines are in play).
    `figures_apart`: each figure of an entry of several keeps his own record (XP,
    injuries, death): a line naming such an entry takes one figure out of it
    (docs/campaigns.md « One figure of several »)."""

    profile_stats: tuple[str, ...] = ()
    stat_defaults: Mapping[str, int] = field(default_factory=dict)
    figure_stats: tuple[FigureStat, ...] = ()
    has_xp: bool = False
    has_rep: bool = False
    catalogue_figures: CatalogueFigures | None = None
    score_template: str | None = None
    totals_template: str | None = None
    figures_apart: bool = False

    @property
    def raises_stats(self) -> bool:
        """Whether a battle line may change any of a figure's numbers."""
        return bool(self.profile_stats or self.figure_stats)

    def figures(self, system: AnySystem) -> dict[str, dict[str, Any]]:
        return self.catalogue_figures(system) if self.catalogue_figures is not None else {}


def model_defaults(model: type[BaseModel]) -> dict[str, int]:
    """The integer defaults of a model's fields (`stat_defaults` of a profile model)."""
    return {
        name: found.default
        for name, found in model.model_fields.items()
        if isinstance(found.default, int) and not isinstance(found.default, bool)
    }


def sample_figures(custom: Callable[[Any], dict[str, Any]]) -> CatalogueFigures:
    """`catalogue_figures` of a system whose catalogue lists sample figures
    (`system.data.figures`, each with an id and a name): each as the player's own,
    `custom(sample)` its numbers."""

    def figures(system: AnySystem) -> dict[str, dict[str, Any]]:
        samples = system.data.figures  # type: ignore[attr-defined]
        return {s.id: {"name": s.name, "custom": custom(s)} for s in samples}

    return figures


# The traits of a system that declares none.
NO_CAMPAIGN_TRAITS = CampaignTraits()

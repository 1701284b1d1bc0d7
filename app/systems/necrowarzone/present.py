"""What the Necromunda–Warzone API and pages show: the catalogue (every item with id, name,
kind), each figure as a summary line with its badges, and the gang's totals.

The text has no points: summaries carry no budget, and `totals` say instead what the
table needs (figures, actions, XP, initiative, rout threshold, command radius).
"""

from typing import Literal

from pydantic import BaseModel, Field

from app.systems.base import Badge, SummaryLine, Total
from app.systems.catalogued import CatalogueOut, DescribedOut, ExampleOut, ItemOut, entry_line
from app.systems.necrowarzone.catalogue import Catalogue, ModifierKind
from app.systems.necrowarzone.models import NecrowarzoneFigure, NecrowarzoneRosterBase
from app.systems.necrowarzone.rosters import (
    NecrowarzoneEntryResult,
    NecrowarzoneGangDerived,
    NecrowarzoneResult,
)
from app.systems.necrowarzone.rules import NecrowarzoneFigureDerived, cost_figure
from app.systems.necrowarzone.shooting import read_roll


class NecrowarzoneXpBandOut(DescribedOut):
    """One line of "NOMBRE D’ACTIONS DES PERSONNAGES" (L8-11)."""

    kind: Literal["tranche_xp"] = "tranche_xp"
    xp_min: int
    xp_max: int | None = Field(description="None for the last, open band (401+).")
    actions: int
    leader_actions: int = Field(description="The chef's actions, in brackets in the text.")


class NecrowarzoneToHitOut(ItemOut):
    """One column of "Jet pour toucher" (L38-39), and how it reads on 1D6."""

    kind: Literal["pour_toucher"] = "pour_toucher"
    ct: int
    score: int = Field(description="The table's Résultat (L39): 7 − CT.")
    roll: str = Field(description="How the score reads on 1D6 (Necromunda's way, hors texte).")
    chance: str = Field(description="The exact chance to hit, in lowest terms.")
    source: str


class NecrowarzoneModifierOut(DescribedOut):
    """One row of "Modificateurs de tir" (L40-49), as printed."""

    kind: Literal["modificateur_tir"] = "modificateur_tir"
    group: ModifierKind = Field(description="couvert, condition, par_action (Viser), arme.")
    value: int
    took_cover_value: int | None


class NecrowarzoneRuleOut(BaseModel):
    """A rule line quoted with its source (light wounds L78, rout L84)."""

    source: str
    text: str


class NecrowarzoneFigureOut(ItemOut):
    """A ready-made figure (Caserne's own: the text prints no profile)."""

    kind: Literal["figurine"] = "figurine"
    figure: NecrowarzoneFigure = Field(description="As POST .../cost takes it.")
    derived: NecrowarzoneFigureDerived
    note: str
    source: str


class NecrowarzoneExampleOut(ExampleOut[NecrowarzoneRosterBase]):
    """A gang of Caserne's own (the text prints none), with what the table needs of it."""

    derived: NecrowarzoneGangDerived


class NecrowarzoneCatalogue(CatalogueOut):
    system: Literal["necrowarzone"] = "necrowarzone"
    xp_bands: list[NecrowarzoneXpBandOut]
    light_wound: NecrowarzoneRuleOut
    to_hit: list[NecrowarzoneToHitOut]
    modifiers: list[NecrowarzoneModifierOut]
    cover_rule: NecrowarzoneRuleOut = Field(description="One cover modifier at most (L40).")
    rout: NecrowarzoneRuleOut
    figures: list[NecrowarzoneFigureOut]
    examples: list[NecrowarzoneExampleOut]


def band_name(xp_min: int, xp_max: int | None) -> str:
    return f"{xp_min}-{xp_max} XP" if xp_max is not None else f"{xp_min}+ XP"


def catalogue_parts(catalogue: Catalogue) -> dict[str, object]:
    """The tables and sample figures of the catalogue output (examples are the system's)."""
    to_hit = []
    for row in catalogue.to_hit.scores:
        roll, chance, _note = read_roll(row.score)
        to_hit.append(
            NecrowarzoneToHitOut(
                id=f"ct_{row.ct}",
                name=f"CT {row.ct}",
                ct=row.ct,
                score=row.score,
                roll=roll,
                chance=str(chance),
                source=catalogue.to_hit.source,
            )
        )
    return {
        "xp_bands": [
            NecrowarzoneXpBandOut(
                id=f"xp_{band.xp_min}_{band.xp_max if band.xp_max is not None else 'plus'}",
                name=band_name(band.xp_min, band.xp_max),
                **band.model_dump(),
            )
            for band in catalogue.action_bands
        ],
        "light_wound": NecrowarzoneRuleOut(
            source=catalogue.light_wound.source, text=catalogue.light_wound.text
        ),
        "to_hit": to_hit,
        "modifiers": [
            NecrowarzoneModifierOut(group=m.kind, **m.model_dump(exclude={"kind"}))
            for m in catalogue.shooting.modifiers
        ],
        "cover_rule": NecrowarzoneRuleOut(
            source=catalogue.shooting.source, text=catalogue.shooting.text
        ),
        "rout": NecrowarzoneRuleOut(source=catalogue.rout.source, text=catalogue.rout.text),
        "figures": [
            NecrowarzoneFigureOut(
                id=sample.id,
                name=sample.name,
                figure=sample.figure,
                derived=cost_figure(catalogue, sample.figure).derived,
                note=sample.note,
                source=sample.source,
            )
            for sample in catalogue.figures
        ],
    }


def to_hit_text(derived: NecrowarzoneFigureDerived) -> str:
    """The score to hit as a badge reads ("touche 3+"), or why there is none."""
    if derived.to_hit is None:
        return "CT hors du tableau"
    return f"touche {read_roll(derived.to_hit)[0]}"


def figure_badges(figure: NecrowarzoneFigure, derived: NecrowarzoneFigureDerived) -> list[Badge]:
    """Chef, actions per turn, the score to hit, encumbered."""
    badges = [Badge(text="chef", kind="nw-leader")] if figure.leader else []
    plural = "s" if derived.actions > 1 else ""
    badges.append(Badge(text=f"{derived.actions} action{plural}", kind="nw-actions"))
    badges.append(Badge(text=to_hit_text(derived), kind="nw-to-hit"))
    if derived.encumbered:
        badges.append(Badge(text="encombré", kind="nw-encumbered"))
    return badges


def figure_details(figure: NecrowarzoneFigure, derived: NecrowarzoneFigureDerived) -> list[str]:
    """The profile line, the weapons, the XP, and what changes the numbers."""
    # No-break spaces keep the profile on one line on a page; exports read them as spaces.
    details = [figure.profile.text("\u00a0")]
    if figure.weapons:
        details.append(", ".join(weapon.text() for weapon in figure.weapons))
    if figure.heavy_equipment:
        details.append("équipement lourd")
    details.append(f"{figure.xp} XP")
    if figure.light_wounds:
        plural = "s" if figure.light_wounds > 1 else ""
        details.append(f"{figure.light_wounds} blessure{plural} légère{plural}")
    if derived.command_radius is not None:
        details.append(f"commandement à {derived.command_radius} pas")
    return details


def summary_line(figure: NecrowarzoneFigure, entry: NecrowarzoneEntryResult) -> SummaryLine:
    return entry_line(
        entry,
        badges=figure_badges(figure, entry.derived),
        details=figure_details(figure, entry.derived),
    )


def plural(count: int, singular: str, plural: str) -> str:
    return singular if count == 1 else plural


def gang_totals(result: NecrowarzoneResult) -> list[Total]:
    """What the table needs of the gang, in place of points."""
    derived = result.derived
    figures, actions, rout = derived.figures, derived.actions_total, derived.rout_threshold
    totals = [
        Total(label=plural(figures, "figurine", "figurines"), value=str(figures)),
        Total(label=plural(actions, "action par tour", "actions par tour"), value=str(actions)),
        Total(label="XP au total", value=str(derived.xp_total)),
    ]
    if derived.initiative_xp is not None:
        totals.append(Total(label="XP d’initiative (chef)", value=str(derived.initiative_xp)))
    if figures:
        label = plural(rout, "perte pour un test de déroute", "pertes pour un test de déroute")
        totals.append(Total(label=label, value=str(rout)))
    radii = [
        e.derived.command_radius for e in result.entries if e.derived.command_radius is not None
    ]
    if radii:
        totals.append(Total(label="rayon de commandement", value=f"{max(radii)} pas"))
    return totals

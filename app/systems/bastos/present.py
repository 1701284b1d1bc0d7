"""What the Bastos API and pages show: the catalogue (every item with id, name, kind), the
summary lines of a band (badges, the weapon's row, the Rep test) and its totals.

No points anywhere: a summary has no budget, its `totals` say what a band is made of.
"""

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, Field

from app.systems.base import Badge, SummaryLine, Total
from app.systems.bastos.catalogue import Catalogue, Weapon
from app.systems.bastos.engine import BastosFigure, BastosWeaponOut
from app.systems.bastos.roster import BastosResult, BastosRosterBase, entry_figure
from app.systems.catalogued import CatalogueOut, ExampleOut, ItemOut, entry_line
from app.systems.memo import EntryMemo, per_entry

OPTIONAL_RULES = {
    "beaucoup_de_joueurs": "Beaucoup de joueurs",
    "beaucoup_de_figurines": "Beaucoup de figurines",
    "porter_les_blesses": "Porter les blessés",
    "abreger_les_tirs": "Abréger les tirs interminables",
    "zombies": "Quelques règles pour jouer zombies",
}


class BastosWeaponItem(BastosWeaponOut):
    """A row of the weapon table (L13-71) as the catalogue lists it."""

    kind: Literal["arme"] = "arme"
    source: str


class BastosRepOut(BaseModel):
    id: str = Field(description="rep_3, rep_4, rep_5.")
    name: str = Field(description="« Bleu », « Fiable », « Vétéran » (L11).")
    kind: Literal["rep"] = "rep"
    rep: int
    text: str
    source: str


class BastosFigureOut(ItemOut):
    """A figure of the text's examples; `definition` is the body POST .../cost takes."""

    kind: Literal["figurine"] = "figurine"
    rep: int
    leader: bool
    star: bool
    weapon: str | None
    points: int = Field(0, description="No points in Bastos.")
    definition: BastosFigure
    note: str
    source: str


class BastosExampleOut(ExampleOut[BastosRosterBase]):
    """A band the text describes (no points: its total is 0)."""

    note: str


class BastosOptionalRuleOut(ItemOut):
    kind: Literal["regle_optionnelle"] = "regle_optionnelle"


class BastosCatalogue(CatalogueOut):
    system: Literal["bastos"] = "bastos"
    has_points: Literal[False] = False
    weapons: list[BastosWeaponItem]
    reps: list[BastosRepOut]
    figures: list[BastosFigureOut]
    optional_rules: list[BastosOptionalRuleOut]
    examples: list[BastosExampleOut]


def figure_definition(catalogue: Catalogue, figure_id: str) -> BastosFigure:
    sample = catalogue.figure(figure_id)
    return BastosFigure(
        rep=sample.rep, leader=sample.leader, star=sample.star, weapon=sample.weapon
    )


@lru_cache(maxsize=4096)
def percent(probability: str) -> str:
    """ "4/9" → "44 %" (French spacing; "< 1 %" rather than a misleading 0)."""
    value = Fraction(probability)
    if 0 < value < Fraction(1, 200):
        return "< 1 %"
    return f"{round(value * 100)} %"


def odds_text(probability: str) -> str:
    """ "4/9" → "4/9 (44 %)"."""
    return f"{probability} ({percent(probability)})"


def rep_test_text(rep_test: Mapping[Any, str]) -> str:
    """ "2 réussites 4/9 (44 %), 1 réussite 4/9 (44 %), 0 réussite 1/9 (11 %)"."""
    labels = {"2": "2 réussites", "1": "1 réussite", "0": "0 réussite"}
    return ", ".join(f"{labels[key]} {odds_text(rep_test[key])}" for key in ("2", "1", "0"))


def weapon_row(weapon: Weapon | BastosWeaponOut) -> str:
    """The weapon's row as the table prints it: portée, taux (écart), impact, classe."""
    if weapon.rate is None:
        return f"corps à corps, impact {weapon.impact}"
    spread = f" ({weapon.spread_cm:g} cm)".replace(".", ",") if weapon.spread_cm else ""
    klass = f", classe {weapon.class_}" if weapon.class_ is not None else ""
    return f"portée {weapon.range_cm} cm, taux {weapon.rate}{spread}, impact {weapon.impact}{klass}"


def weapon_text(weapon: Weapon | BastosWeaponOut) -> str:
    """ "Mitraillette : portée 60 cm, taux 3 (7,5 cm), impact 3, classe 4"."""
    return f"{weapon.name} : {weapon_row(weapon)}"


def figure_badges(figure: BastosFigure, catalogue: Catalogue) -> list[Badge]:
    badges = [Badge(text=f"Rep {figure.rep}", kind="rep")]
    if figure.leader:
        badges.append(Badge(text="Chef", kind="leader", colour="#1f5fa8"))
    if figure.star:
        badges.append(Badge(text="Star", kind="star", colour="#b7950b"))
    weapon = catalogue.weapon(figure.weapon).name if figure.weapon else "Désarmé"
    badges.append(Badge(text=weapon, kind="weapon"))
    return badges


def summary_lines(
    catalogue: Catalogue,
    roster: BastosRosterBase,
    result: BastosResult,
    memo: "EntryMemo[SummaryLine] | None" = None,
) -> list[SummaryLine]:
    """One line per figure; `memo`: a memory of lines, each a function of its entry and
    index, as the entry's result is (validate_roster; app/systems/memo.py)."""
    return per_entry(
        memo,
        roster.entries,
        lambda entry, index: summary_line(catalogue, entry, result.entries[index]),
    )


def summary_line(catalogue: Catalogue, entry: Any, entry_result: Any) -> SummaryLine:
    figure, _name = entry_figure(catalogue, entry)
    derived = entry_result.derived
    details = [weapon_row(derived.weapon)] if derived.weapon else []
    test = "Test de Rep, dé de leader" if derived.leader else "Test de Rep"
    details.append(f"{test} : {rep_test_text(derived.rep_test)}")
    return entry_line(entry_result, badges=figure_badges(figure, catalogue), details=details)


def _noun(count: int, singular: str, plural: str) -> Total:
    """A total that reads both ways: "4 Figurines de Rep 4" and "Figurines de Rep 4 : 4"."""
    return Total(label=singular if count <= 1 else plural, value=str(count))


def totals(result: BastosResult) -> list[Total]:
    """Figures, total Rep, Rep distribution, leaders, stars, weapon classes."""
    band = result.derived
    found = [
        _noun(band.figures, "Figurine", "Figurines"),
        Total(label="Rep totale", value=str(band.rep_total)),
    ]
    found += [
        _noun(count, f"Figurine de Rep {rep}", f"Figurines de Rep {rep}")
        for rep, count in band.rep_distribution.items()
    ]
    found += [_noun(band.leaders, "Leader", "Leaders"), _noun(band.stars, "Star", "Stars")]
    found += [
        _noun(count, f"Arme de classe {klass}", f"Armes de classe {klass}")
        for klass, count in band.weapon_classes.items()
    ]
    classless = band.figures - sum(band.weapon_classes.values())
    if classless > 0:
        found.append(_noun(classless, "Figurine sans arme classée", "Figurines sans arme classée"))
    return found


def summary_notes(roster: BastosRosterBase) -> list[str]:
    notes = []
    if roster.extras.objective:
        notes.append(f"Objectif : {roster.extras.objective}")
    if roster.extras.optional_rules:
        rules = ", ".join(OPTIONAL_RULES[rule] for rule in roster.extras.optional_rules)
        notes.append(f"Règles optionnelles : {rules}")
    return notes

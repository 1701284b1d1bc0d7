"""Necromunda–Warzone shooting helper: the to-hit table (L38-39) and its modifiers (L40-49).

Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app.systems.necrowarzone import (
    Catalogue,
    NecrowarzoneShotRequest,
    NecrowarzoneShotResult,
    NecrowarzoneSystem,
    build,
    needed_to_hit,
)
from app.systems.necrowarzone.shooting import read_roll

CATALOGUE = Path(__file__).parents[2] / "data" / "systems" / "necrowarzone" / "catalogue.toml"


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    system = build(tomllib.loads(CATALOGUE.read_text(encoding="utf-8")))
    assert isinstance(system, NecrowarzoneSystem), system
    return system.data


def shot(
    catalogue: Catalogue, ct: int = 4, *modifiers: str, **fields: Any
) -> NecrowarzoneShotResult:
    request = NecrowarzoneShotRequest.model_validate(
        {"ct": ct, "modifiers": list(modifiers), **fields}
    )
    return needed_to_hit(catalogue, request)


def applied(result: NecrowarzoneShotResult) -> list[tuple[str, int]]:
    return [(line.id, line.value) for line in result.modifiers]


# L38 « CT----------------------1 2 3 4 5 6 7 8 9 10 »
# L39 « Résultat---------------6 5 4 3 2 1 0 -1 -2 -3 »
@pytest.mark.parametrize(
    ("ct", "score", "roll", "chance"),
    [
        (1, 6, "6+", "1/6"),
        (2, 5, "5+", "1/3"),
        (3, 4, "4+", "1/2"),
        (4, 3, "3+", "2/3"),
        (5, 2, "2+", "5/6"),
        (6, 1, "2+", "5/6"),  # a 1 always misses (note: Necromunda, outside the text)
        (7, 0, "2+", "5/6"),
        (8, -1, "2+", "5/6"),
        (9, -2, "2+", "5/6"),
        (10, -3, "2+", "5/6"),
    ],
)
def test_table_without_modifiers(
    catalogue: Catalogue, ct: int, score: int, roll: str, chance: str
) -> None:
    result = shot(catalogue, ct)
    assert (result.table_score, result.needed, result.roll, result.chance) == (
        score,
        score,
        roll,
        chance,
    )
    assert result.modifiers == []
    assert result.issues == []


@pytest.mark.parametrize(
    ("modifiers", "fields", "total"),
    [
        (["cible_partiellement_a_couvert"], {}, -1),  # L41 « Cible partiellement à couvert -1 »
        # L41 « (-2 si la cible a effectué l’action Se mettre à couvert) »
        (["cible_partiellement_a_couvert"], {"target_took_cover": True}, -2),
        (["cible_a_couvert"], {}, -2),  # L42 « Cible à couvert -2 »
        # L42 « (-3 si la cible a effectué l’action Se mettre à couvert) »
        (["cible_a_couvert"], {"target_took_cover": True}, -3),
        # L43 « Cible apparaissant, disparaissant ou en charge -1 »
        (["cible_apparaissant_disparaissant_ou_en_charge"], {}, -1),
        (["cible_rapide"], {}, -1),  # L44 « Cible rapide (...10 pas ou plus ce tour-ci) -1 »
        (["petite_cible"], {}, -1),  # L45 « Petite cible -1 »
        # L46 « Le tireur utilise une arme lourde et ne s’est pas arc-bouté -2 »
        (["arme_lourde_sans_arc_bouter"], {}, -2),
        (["grande_cible"], {}, 1),  # L47 « Grande cible +1 »
        # L48 « Le tireur a utilisé l’action Viser +1 (par action Viser précédent le tir) »
        ([], {"aim_actions": 1}, 1),
        ([], {"aim_actions": 3}, 3),
        ([], {"weapon_modifier": 1}, 1),  # L49 « Modificateurs de l’arme +/-1 »
        ([], {"weapon_modifier": -1}, -1),
    ],
)
def test_each_modifier(
    catalogue: Catalogue, modifiers: list[str], fields: dict[str, Any], total: int
) -> None:
    result = shot(catalogue, 4, *modifiers, **fields)  # CT 4: 3+ (L38-39)
    assert result.modifier_total == total
    assert result.needed == 3 - total
    assert result.issues == []


def test_modifiers_add_up(catalogue: Catalogue) -> None:
    # L40 « (cumulatifs – exception : un seul modificateur de couvert maximum) »
    result = shot(
        catalogue,
        3,
        "grande_cible",
        "cible_rapide",
        "cible_partiellement_a_couvert",
        aim_actions=1,
        weapon_modifier=-1,
    )
    # Lines come in the order of the printed table (L41-49).
    assert applied(result) == [
        ("cible_partiellement_a_couvert", -1),
        ("cible_rapide", -1),
        ("grande_cible", 1),
        ("viser", 1),
        ("modificateur_arme", -1),
    ]
    assert [line.source for line in result.modifiers] == ["L41", "L44", "L47", "L48, L19", "L49"]
    # CT 3 (4+, L39), -1 in all: 5+.
    assert (result.modifier_total, result.needed) == (-1, 5)
    assert (result.roll, result.chance) == ("5+", "1/3")


def test_taking_cover_is_not_counted_twice(catalogue: Catalogue) -> None:
    # L34 « un malus supplémentaire de -1 ... (cumulatif avec les autres malus, y compris les
    # malus de couvert) » is the bracketed value of L42: -3 in all, not -2 -1 -1.
    result = shot(catalogue, 4, "cible_a_couvert", target_took_cover=True, aim_actions=2)
    assert applied(result) == [("cible_a_couvert", -3), ("viser", 2)]
    assert result.modifiers[0].source == "L42, L34"
    assert result.modifiers[0].label == "Cible à couvert (s’est mise à couvert)"
    # CT 4 behind cover after Se mettre à couvert, two Viser: 3 + 3 - 2 = 4+.
    assert (result.needed, result.roll, result.chance) == (4, "4+", "1/2")


@pytest.mark.parametrize(
    ("took_cover", "kept"),
    [(False, ("cible_a_couvert", -2)), (True, ("cible_a_couvert", -3))],
)
def test_one_cover_modifier_at_most(
    catalogue: Catalogue, took_cover: bool, kept: tuple[str, int]
) -> None:
    # L40 « un seul modificateur de couvert maximum »: the strongest counts.
    result = shot(
        catalogue,
        4,
        "cible_partiellement_a_couvert",
        "petite_cible",
        "cible_a_couvert",
        target_took_cover=took_cover,
    )
    assert applied(result) == [kept, ("petite_cible", -1)]
    assert [(i.severity, i.code, i.path) for i in result.issues] == [
        ("warning", "several_cover_modifiers", "modifiers[0]")
    ]
    assert result.valid


def test_a_repeated_modifier_counts_once(catalogue: Catalogue) -> None:
    result = shot(catalogue, 4, "petite_cible", "petite_cible")
    assert applied(result) == [("petite_cible", -1)]
    assert [(i.code, i.path) for i in result.issues] == [("duplicate_modifier", "modifiers[1]")]


def test_taking_cover_needs_cover(catalogue: Catalogue) -> None:
    # L34 « Tout personnage se trouvant derrière un couvert (même partiel) peut Se mettre à
    # couvert »: without a cover row, nothing is applied and the player is told.
    result = shot(catalogue, 4, target_took_cover=True)
    assert result.modifiers == []
    assert [(i.severity, i.code, i.path) for i in result.issues] == [
        ("warning", "took_cover_without_cover", "target_took_cover")
    ]


def test_small_and_large_target(catalogue: Catalogue) -> None:
    # L45 « Petite cible -1 », L47 « Grande cible +1 »: one or the other.
    result = shot(catalogue, 4, "petite_cible", "grande_cible")
    assert [(i.severity, i.code) for i in result.issues] == [("error", "small_and_large_target")]
    assert not result.valid


@pytest.mark.parametrize(
    ("needed", "roll", "chance"),
    [
        (-5, "2+", Fraction(5, 6)),  # a 1 always misses (outside the text)
        (1, "2+", Fraction(5, 6)),
        (2, "2+", Fraction(5, 6)),
        (3, "3+", Fraction(4, 6)),
        (6, "6+", Fraction(1, 6)),
        (7, "6 puis 4+", Fraction(1, 12)),  # a 6, then 4+ (outside the text)
        (8, "6 puis 5+", Fraction(1, 18)),
        (9, "6 puis 6+", Fraction(1, 36)),
        (10, "impossible", Fraction(0)),
        (14, "impossible", Fraction(0)),
    ],
)
def test_reading_a_score_off_the_die(needed: int, roll: str, chance: Fraction) -> None:
    reading = read_roll(needed)
    assert reading[:2] == (roll, chance)
    assert (reading[2] is None) == (2 <= needed <= 6)


def test_scores_beyond_six(catalogue: Catalogue) -> None:
    # CT 1 (6+, L39) at a target in cover (-2, L42): 8, a 6 then 5+.
    result = shot(catalogue, 1, "cible_a_couvert")
    assert (result.needed, result.roll, result.chance) == (8, "6 puis 5+", "1/18")
    assert result.note is not None and "hors texte" in result.note
    # ... that took cover (-3) and is small (-1): 10, impossible.
    result = shot(catalogue, 1, "cible_a_couvert", "petite_cible", target_took_cover=True)
    assert (result.needed, result.roll, result.chance) == (10, "impossible", "0")


@pytest.mark.parametrize(
    "fields",
    [
        {"ct": 0},
        {"ct": 11},  # L38: the table covers CT 1 to 10
        {"ct": 4, "aim_actions": 5},  # 5 actions at most (L11), one of them the shot
        {"ct": 4, "aim_actions": -1},
        {"ct": 4, "weapon_modifier": 2},  # L49 « +/-1 »
        {"ct": 4, "modifiers": ["viser"]},  # Viser is counted by aim_actions
        {"ct": 4, "modifiers": ["sous_la_pluie"]},
        {"ct": "4"},
        {"ct": 4, "range": 12},
    ],
)
def test_refused_requests(fields: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        NecrowarzoneShotRequest.model_validate(fields)

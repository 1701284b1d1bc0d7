"""Part F (creation), B (levels), D (items), E.3 (score) and G.a (hidden moves), engine only.

Lnnn = line of shared/rules/dcsystem-stargates-war.fr.txt.
"""

from typing import Any

import pytest

from app.systems.dcsystem import DcSystem
from app.systems.dcsystem.engine import DcsystemFighter
from app.systems.dcsystem.roster import DcsystemScoreRequest


def cost(system: DcSystem, level: int, *items: str) -> Any:
    return system.cost(DcsystemFighter(level=level, items=list(items)))


def dice(result: Any) -> tuple[int, int, int, int]:
    d = result.derived.dice
    return (d.red, d.blue, d.white, d.yellow)


@pytest.mark.parametrize(
    ("level", "points", "red", "blue"),
    [
        (1, 8, 2, 1),  # L216 "Niveau 1: 2 dés rouges et 1 dé bleu", L317 "= 8points"
        (2, 15, 3, 1),  # L217, L318 "= 15points"
        (3, 25, 3, 3),  # L218, L319 "= 25points"
    ],
)
def test_level_base(dcsystem: DcSystem, level: int, points: int, red: int, blue: int) -> None:
    # A bare fighter has no white die: Équilibre takes 5 off (L354).
    bare = cost(dcsystem, level)
    assert [(line.id, line.points) for line in bare.breakdown] == [
        (f"niveau_{level}", points),
        ("equilibre", -5),
    ]
    assert bare.points == points - 5
    assert dice(bare) == (red, blue, 0, 0)
    with_gun = cost(dcsystem, level, "arme_tir_1")  # L337 "Arme de tirs niveau 1 = 5 points"
    assert with_gun.points == points + 5
    assert dice(with_gun) == (red, blue, 1, 0)


def test_worked_example_of_part_c(dcsystem: DcSystem) -> None:
    # L253: "Un soldat de niveau 2 (3 dés rouge et 1 bleu) est équipé d'une arme de tir de
    # niveau 2 (2 dés blancs) et d'un gilet de protection(+ 1 dé Rouge)."
    soldier = cost(dcsystem, 2, "arme_tir_2", "gilet_de_protection")
    assert dice(soldier) == (4, 1, 2, 0)
    assert soldier.points == 15 + 7 + 8
    assert soldier.valid


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        (("determine",), (3, 2, 1, 0)),  # L259 one more blue
        (("drogues_de_combat",), (3, 3, 1, 0)),  # L277 two more blue
        (("gilet_de_protection",), (4, 1, 1, 0)),  # L278 one more red
        (("fragile",), (2, 1, 1, 0)),  # L286 one red less
        (("arme_cc_3", "force"), (3, 1, 1, 4)),  # L261 3 -> 4 yellow
        (("arme_tir_3", "puissance_de_tir"), (3, 1, 4, 0)),  # L282 3 -> 4 white
        (("grenade",), (3, 1, 2, 0)),  # L279 "arme de tir de niveau 2"
        (("mortier",), (3, 1, 3, 0)),  # L281 "arme de tir de niveau 3"
        (("lance_flammes",), (3, 1, 3, 0)),  # L280 "arme de tir de niveau 3"
    ],
)
def test_items_change_the_dice(
    dcsystem: DcSystem, items: tuple[str, ...], expected: tuple[int, int, int, int]
) -> None:
    base = (
        ("arme_tir_1",)
        if not any(i in ("arme_tir_3", "grenade", "mortier", "lance_flammes") for i in items)
        else ()
    )
    assert dice(cost(dcsystem, 2, *base, *items)) == expected


def test_best_weapon_gives_the_dice(dcsystem: DcSystem) -> None:
    # A shot uses one weapon (note 6): the pool shows the best, each weapon is listed.
    result = cost(dcsystem, 3, "arme_tir_2", "grenade", "arme_cc_1")
    assert dice(result) == (3, 3, 2, 1)
    assert [(w.id, w.dice) for w in result.derived.weapons] == [
        ("arme_tir_2", 2),
        ("grenade", 2),
        ("arme_cc_1", 1),
    ]


@pytest.mark.parametrize(
    ("handicap", "points"),
    [("arme_fixe", -3), ("courte_portee", -5), ("fragile", -7), ("immobile", -10), ("lent", -3)],
)
def test_handicaps_reduce_the_cost(dcsystem: DcSystem, handicap: str, points: int) -> None:
    # L348-352; Fragile and Immobile are printed without a minus sign (note 1).
    result = cost(dcsystem, 2, "arme_tir_2", handicap)
    assert result.points == 15 + 7 + points
    assert result.breakdown[-1].id == handicap and result.breakdown[-1].points == points


def test_asgard_printed_cost_reads_fragile_as_a_reduction(dcsystem: DcSystem) -> None:
    # L166 "Asgard 13 points Niveau 1 ... Camouflage, fragile": 8 + 12 - 7 = 13 before
    # Équilibre, which the published lists predate.
    result = cost(dcsystem, 1, "camouflage", "fragile")
    assert [line.points for line in result.breakdown] == [8, 12, -7, -5]
    assert result.points == 8


def test_grenade_brings_its_handicap_free_and_uncounted(dcsystem: DcSystem) -> None:
    # L279 "les grenades donnent automatiquement le handicape « courte porté »"; the
    # Artificier (L98) is printed at 28 = 15 + 5 + 8: the handicap is not charged (note 3).
    result = cost(dcsystem, 2, "grenade", "gilet_de_protection", "lent")
    assert [(line.id, line.points) for line in result.breakdown] == [
        ("niveau_2", 15),
        ("grenade", 5),
        ("gilet_de_protection", 8),
        ("lent", -3),
        ("courte_portee", 0),
    ]
    assert result.derived.slots.handicaps_used == 1
    assert result.valid  # "lent" is still the one handicap allowed


def test_handicap_already_given_is_not_charged_twice(dcsystem: DcSystem) -> None:
    result = cost(dcsystem, 2, "mortier", "arme_fixe")
    assert result.points == 15 + 15 + 0
    assert [i.code for i in result.issues] == ["handicap_already_given"]
    assert result.issues[0].path == "items[1]"


def test_too_many_items_is_an_error_with_the_overflow(dcsystem: DcSystem) -> None:
    # L318 "Combattant de niveau 2 (2 capacités ou équipements et 1 handicape maximum)"
    result = cost(dcsystem, 2, "arme_tir_2", "gilet_de_protection", "soin", "rapide")
    assert result.points == 15 + 7 + 8 + 15 + 3  # still costed
    assert not result.valid
    [issue] = result.issues
    assert issue.code == "too_many_items"
    assert issue.message == "Niveau 2 : 4 capacités ou équipements pour 2 autorisé(s), 2 de trop."
    slots = result.derived.slots
    assert (slots.used, slots.allowed) == (4, 2)


def test_elite_opens_a_slot_and_is_not_counted(dcsystem: DcSystem) -> None:
    # L260 "Élite n'est pas pris en compte dans le nombre de capacités"
    result = cost(dcsystem, 1, "elite", "arme_tir_1", "gilet_de_protection")
    assert result.valid
    assert (result.derived.slots.used, result.derived.slots.allowed) == (2, 2)
    assert result.points == 8 + 3 + 5 + 8


def test_heros_opens_a_slot_like_elite(dcsystem: DcSystem) -> None:
    # L262 "Héros n'est pas pris en compte"; the four published heroes all carry four items
    # at level 3 (L105, L108, L111, L154): Héros opens a slot (note 4).
    result = cost(
        dcsystem, 3, "heros", "arme_tir_2", "commandement", "gilet_de_protection", "determine"
    )
    assert result.valid
    assert (result.derived.slots.used, result.derived.slots.allowed) == (4, 4)
    assert result.points == 72  # Jack O'Neil, L106


def test_second_handicap_is_an_error(dcsystem: DcSystem) -> None:
    result = cost(dcsystem, 1, "arme_tir_1", "lent", "fragile")
    assert [i.code for i in result.issues] == ["too_many_handicaps"]
    assert result.issues[0].message == "2 handicaps pour 1 autorisé, 1 de trop."
    assert result.points == 8 + 5 - 3 - 7


def test_duplicate_item_is_refused_and_not_charged(dcsystem: DcSystem) -> None:
    result = cost(dcsystem, 2, "arme_tir_2", "arme_tir_2")
    assert result.points == 22
    assert [(i.code, i.path) for i in result.issues] == [("duplicate_item", "items[1]")]


def test_force_without_its_weapon_warns(dcsystem: DcSystem) -> None:
    result = cost(dcsystem, 2, "arme_tir_1", "force")
    assert [(i.severity, i.code) for i in result.issues] == [("warning", "boost_without_weapon")]
    assert result.valid


@pytest.mark.parametrize(
    "weapon",
    [
        "arme_tir_3",  # L275 "Arme de tirs niveau 3: Donne trois dés blancs"
        "lance_flammes",  # L280 "Le lance flamme est une arme de tir de niveau 3"
        "mortier",  # L281 "Le mortier est une arme de tir de niveau 3"
    ],
)
def test_puissance_de_tir_raises_every_level_3_shooting_weapon(
    dcsystem: DcSystem, weapon: str
) -> None:
    # L282 "Puissance de tir: Fait passer de 3 à 4 le nombre de dès fournis par une arme de
    # tir de niveau 3."
    result = cost(dcsystem, 2, weapon, "puissance_de_tir")
    assert dice(result) == (3, 1, 4, 0)
    assert [w.dice for w in result.derived.weapons] == [4]
    assert "boost_without_weapon" not in [i.code for i in result.issues]
    assert result.points == cost(dcsystem, 2, weapon).points + 5  # L346 "= 5 points"


def test_puissance_de_tir_leaves_the_grenade_alone(dcsystem: DcSystem) -> None:
    # L279 "La grenade est une arme de tir de niveau 2": L282 names level 3 only.
    result = cost(dcsystem, 2, "grenade", "puissance_de_tir")
    assert dice(result) == (3, 1, 2, 0)
    [issue] = [i for i in result.issues if i.code == "boost_without_weapon"]
    assert issue.message == (
        "« Puissance de tir » n'a d'effet qu'avec une arme de tir de niveau 3 "
        "(Arme de tir niveau 3, Lance-flammes ou Mortier)."
    )
    assert "arme_tir_3" not in issue.message


def test_force_raises_the_level_3_melee_weapon_only(dcsystem: DcSystem) -> None:
    # L261 "Force: Fait passer de 3 à 4 le nombre de dès fournis par une arme de corps à corps
    # de niveau 3." L270-272: the only melee weapons are the Armes de corps à corps 1-3.
    assert dice(cost(dcsystem, 2, "arme_cc_3", "force"))[3] == 4
    weak = cost(dcsystem, 2, "arme_tir_1", "arme_cc_2", "force")
    assert dice(weak)[3] == 2
    [issue] = [i for i in weak.issues if i.code == "boost_without_weapon"]
    assert issue.message == (
        "« Force » n'a d'effet qu'avec une arme de corps à corps de niveau 3 "
        "(Arme de corps à corps niveau 3)."
    )
    assert issue.path == "items[2]"


def test_cost_that_falls_to_zero_or_below_warns(dcsystem: DcSystem) -> None:
    result = cost(dcsystem, 1, "immobile")  # 8 - 10 - 5
    assert result.points == -7
    assert [i.code for i in result.issues] == ["cost_not_positive"]


# ----------------------------------------------------------------------------- score (E.3)


def test_score_of_part_e3(dcsystem: DcSystem) -> None:
    # L308-313: main format/10, secondary format/20, 3/2/1 per enemy of level 3/2/1;
    # "Pour un partie à 200 points par camps, l'objectif principal rapporte 200/10=20points"
    result = dcsystem.score(
        DcsystemScoreRequest(
            format=200, main_mission=True, secondary_mission=True, kills={"1": 2, "2": 1, "3": 1}
        )
    )
    assert [(line.id, line.points) for line in result.breakdown] == [
        ("main_mission", 20),
        ("secondary_mission", 10),
        ("kills_level_3", 3),
        ("kills_level_2", 2),
        ("kills_level_1", 2),
    ]
    assert result.points == 37


def test_score_rounds_down_a_fraction(dcsystem: DcSystem) -> None:
    # 250/20 = 12.5: rounded down (note 7).
    result = dcsystem.score(DcsystemScoreRequest(format=250, secondary_mission=True))
    assert result.points == 12


def test_score_without_anything_is_zero(dcsystem: DcSystem) -> None:
    assert dcsystem.score(DcsystemScoreRequest(format=200)).points == 0

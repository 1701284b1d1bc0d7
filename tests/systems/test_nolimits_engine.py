"""No Limits engine: Caserne's points system on the text's anchors, derived values (MA,
damage track, size, buildings), house rules and the guidelines (L195-204).

Lnnn = line of shared/rules/no-limits.fr.txt; anchors marked "origin" are the known prices
of the original creation system (docs/nolimits-points.md).
"""

from typing import Any

import pytest

from app.catalogues import DATA_DIR, read_system_data
from app.systems.base import Costed
from app.systems.nolimits import NolimitsSystem, build
from app.systems.nolimits.pricing import NolimitsUnitDerived
from app.systems.nolimits.rules import armour_modifier, damage_track

FANTASSIN = {"AC": 9, "CT": 5, "CC": 5, "FO": 4, "EN": 5, "PV": 1, "CO": 5, "SV": 2}  # L119
SERGENT = {"AC": 9, "CT": 6, "CC": 6, "FO": 4, "EN": 5, "PV": 2, "CO": 7, "SV": 2}  # L114
TITAN = {"AC": 9, "CT": 7, "CC": 6, "FO": 8, "EN": 8, "PV": 15, "CO": 8, "SV": 7}  # L225
BASELINE = {"AC": 9, "CT": 5, "CC": 5, "FO": 4, "EN": 4, "PV": 1, "CO": 5, "SV": 0}


@pytest.fixture(scope="module")
def nolimits() -> NolimitsSystem:
    data, _origin, problems = read_system_data(DATA_DIR / "nolimits")
    assert problems == []
    built = build(data)
    assert isinstance(built, NolimitsSystem), built
    return built


def cost(system: NolimitsSystem, **definition: Any) -> Costed[NolimitsUnitDerived]:
    definition.setdefault("profile", BASELINE)
    return system.cost(system.unit_model.model_validate(definition))


def weapon_points(system: NolimitsSystem, weapon: Any, **definition: Any) -> int:
    armed = cost(system, weapons=[weapon], **definition)
    return armed.points - cost(system, **definition).points


def codes(result: Costed[NolimitsUnitDerived]) -> list[tuple[str, str, str]]:
    return [(issue.severity, issue.code, issue.path) for issue in result.issues]


# ---------------------------------------------------------------- the anchors, exactly


def test_sword_of_the_original_system_costs_three(nolimits: NolimitsSystem) -> None:
    # origin: "a sword of CdA 1, FO +1, DG 1 costs 3 points (CdA 1 and DG 1 cost nothing,
    # +1 FO costs 3)"; its CU is derived: 3 + 1 (L124, L171).
    sword = {"name": "Épée", "melee": True, "CdA": 1, "FO": 1, "DG": 1}
    armed = cost(nolimits, weapons=[sword])
    assert weapon_points(nolimits, sword) == 3
    assert armed.derived.weapons[0].points == 3
    assert [(line.id, line.points) for line in armed.derived.weapons[0].breakdown] == [("FO", 3)]
    assert armed.derived.weapons[0].CU == 4
    assert armed.issues == []


@pytest.mark.parametrize(
    ("name", "cda", "bonus", "dg", "mpa", "cu"),
    [
        ("Attaque improvisée", 1, 0, 1, 0, 3),  # L191-193 "3 Corps à corps 1 +0 1"
        ("Épée énergétique", 2, 2, 1, -2, 5),  # L151-154 "5 Corps à corps 2 +2 1"
        ("Gantelet énergétique", 1, 3, 2, -2, 6),  # L184-187 "6 Corps à corps 1 +3 2"
    ],
)
def test_melee_use_cost_is_derived(
    nolimits: NolimitsSystem, name: str, cda: int, bonus: int, dg: int, mpa: int, cu: int
) -> None:
    # "Effectuer une attaque de corps à corps basique coûtera trois points d'action" (L124);
    # "pour chaque point de bonus de force ... le coût d'utilisation ... augmente d'autant"
    # (L171): the printed CU is 3 + the bonus, and the engine derives it when omitted.
    weapon = {"name": name, "melee": True, "CdA": cda, "FO": bonus, "DG": dg, "MPA": mpa}
    derived = cost(nolimits, weapons=[weapon])
    assert cu == derived.derived.weapons[0].CU
    explicit = cost(nolimits, weapons=[{**weapon, "CU": cu}])
    assert explicit.points == derived.points
    assert explicit.issues == []


@pytest.mark.parametrize(
    ("ability", "points"),
    [
        # origin: the seven known ability prices.
        ("pertes_acceptables", 6),
        ("adepte", 14),
        ("agile", 2),
        ("frenesie", 1),
        ("determine", 2),
        ("esquive", 3),
        ("evasion", 12),
        # L393-394 prints Infaillible's rule, not its price: Caserne's is 2.
        ("infaillible", 2),
    ],
)
def test_ability_prices(nolimits: NolimitsSystem, ability: str, points: int) -> None:
    with_it = cost(nolimits, abilities=[ability])
    assert with_it.points - cost(nolimits).points == points
    assert with_it.breakdown[-1].points == points


def test_printed_weapons_alone(nolimits: NolimitsSystem) -> None:
    weapons = {w.id: w for w in nolimits.catalogue().weapons}
    # L149 "4 10/+1 20/+0 30/-1 1 6 1" + Baïonnette: FO 6 = 2 × 3, 60" = 6, bayonet 1.
    assert weapons["fusil_d_assaut"].points == 13
    # L153-154: bonus +2 = 6, CdA 2 = 5, MPA -2 = 4.
    assert weapons["epee_energetique"].points == 15
    # L186-187: bonus +3 = 9, DG 2 = 4, MPA -2 = 4.
    assert weapons["gantelet_energetique"].points == 17
    # L193: the improvised attack costs nothing.
    assert weapons["attaque_improvisee"].points == 0
    # L245-246 on a vehicle: (FO 12 + 36" 3 + CdA 20 + MPA 4) × 150 % = 58.
    assert weapons["turbo_laser"].points == 58
    # L249 on a vehicle: (FO 9 + 72" 7 + CdA 15) × 150 % = 46.
    assert weapons["mitrailleuse"].points == 46


def test_printed_profiles_with_their_weapons(nolimits: NolimitsSystem) -> None:
    prices = {p.id: p.points for p in nolimits.published_profiles()}
    # Fantassin (L118-121): 8 + EN 3 + SV 4 + Fusil d'assaut 13.
    # Sergent (L113-116): 8 + CT 2 + CC 2 + EN 3 + PV 15 + CO 2 + SV 4 + 13.
    # Titan (L224-229): (8 + 4 + 2 + 8 + 12 + 210 + 3 + 14) × 90 % = 234, + 2 × 58.
    assert prices == {"sergent": 49, "fantassin": 28, "titan_destroyer": 350}


def test_calibration(nolimits: NolimitsSystem) -> None:
    prices = {p.id: p.points for p in nolimits.published_profiles()}
    # "1000 points par exemple" (L42), "une vingtaine de figurines" (L43).
    assert 20 <= prices["fantassin"] <= 50
    assert prices["sergent"] > prices["fantassin"]
    assert prices["titan_destroyer"] > 10 * prices["fantassin"]


def test_titan_equipment_without_profile_is_listed_not_priced(nolimits: NolimitsSystem) -> None:
    [titan] = [p for p in nolimits.published_profiles() if p.id == "titan_destroyer"]
    # L230-233 name four items with no printed profile.
    assert titan.discrepancies == [
        f"Non chiffré : {item} (aucun profil imprimé, L223-238)."
        for item in (
            "Canon d'assaut frontal",
            "Grenades Anti-Personnelles",
            "Grenades fumigènes",
            "Réacteurs dorsaux",
        )
    ]
    costed = nolimits.cost(nolimits.unit_model.model_validate(titan.definition))
    assert costed.points == 350
    assert [i.code for i in costed.issues] == ["unpriced_equipment"] * 4


# ------------------------------------------------------------------------ derived values


def test_armour_modifier_table() -> None:
    # L173-176 "1 to 4 0 / 5 -1 / 6 -2 / 7 -3 / 8 -4 / 9 -5"; beyond 9 the step goes on.
    assert [armour_modifier(fo) for fo in range(1, 10)] == [0, 0, 0, 0, -1, -2, -3, -4, -5]
    assert (armour_modifier(0), armour_modifier(10), armour_modifier(12)) == (0, -6, -8)


def test_weapon_ma_uses_the_attack_strength(nolimits: NolimitsSystem) -> None:
    fantassin = cost(
        nolimits,
        profile=FANTASSIN,
        weapons=["fusil_d_assaut", "epee_energetique", "gantelet_energetique"],
    )
    weapons = fantassin.derived.weapons
    # A ranged weapon's FO is its own (L149: FO 6 → MA -2, L176).
    assert (weapons[0].FO, weapons[0].MA, weapons[0].CU) == (6, -2, 4)
    # A melee bonus adds to the wielder's FO (L170): 4 + 2 = 6 → -2; 4 + 3 = 7 → -3.
    assert (weapons[1].FO, weapons[1].FO_bonus, weapons[1].MA) == (6, 2, -2)
    assert (weapons[2].FO, weapons[2].FO_bonus, weapons[2].MA) == (7, 3, -3)


def test_vehicle_weapons_have_no_cu(nolimits: NolimitsSystem) -> None:
    # "Elles n'ont pas de coût d'utilisation (CU) spécifique" (L241).
    titan = nolimits.catalogue().profiles[2]
    assert [(w.name, w.CU, w.MA, w.mounted) for w in titan.derived.weapons] == [
        ("Turbo Laser", None, -4, True),
        ("Turbo Laser", None, -4, True),
    ]
    # A rifle on a vehicle: CU ignored, with a warning.
    tank = cost(nolimits, weapons=["fusil_d_assaut"], vehicle={"type": "chenilles"})
    assert tank.derived.weapons[0].CU is None
    assert codes(tank) == [("warning", "cu_on_vehicle_weapon", "weapons[0].CU")]


def test_titan_damage_track_as_printed(nolimits: NolimitsSystem) -> None:
    # L235-238 and L254-257 "1 2 3 Mv Ar / 6 7 Mv 9 Ar / 11 Mv 13 14".
    printed = [["1", "2", "3", "Mv", "Ar"], ["6", "7", "Mv", "9", "Ar"], ["11", "Mv", "13", "14"]]
    assert damage_track(15) == printed
    titan = nolimits.catalogue().profiles[2]
    assert titan.derived.damage_track == printed


def test_damage_track_thresholds() -> None:
    # "Tout véhicule possédant 5 PV ou plus doit utiliser un indicateur de dégâts" (L252).
    assert damage_track(4) is None
    assert damage_track(5) == [["1", "2", "3", "Mv"]]
    # Box 20 is both a 4th and a 5th box: both effects (note 4).
    track = damage_track(21)
    assert track is not None and track[-1] == ["Mv", "17", "18", "19", "Mv+Ar"]


@pytest.mark.parametrize(
    ("size_mm", "size"),
    [
        (18, "petite"),  # L74 "moins de 19 mm"
        (19, "moyenne"),  # the gap between 19 and 20 mm: moyenne (note 7)
        (28, "moyenne"),  # L77 "entre 20 et 50 mm"
        (50, "moyenne"),
        (51, "grande"),  # L80 "plus de 50 mm"
        (99, "grande"),
        (100, "tres_grande"),  # L83 "hautes de 100 mm et/ou longue de 100 mm ou plus"
    ],
)
def test_size_from_mm(nolimits: NolimitsSystem, size_mm: int, size: str) -> None:
    assert cost(nolimits, size_mm=size_mm).derived.size == size


def test_size_prices_the_profile(nolimits: NolimitsSystem) -> None:
    # Large targets are easier to hit (L80, L84): 95 % and 90 % of the profile part.
    profile = {**BASELINE, "PV": 3}  # 8 + 30 = 38
    assert cost(nolimits, profile=profile).points == 38
    assert cost(nolimits, profile=profile, size="grande").points == 36  # 38 × 95 % = 36.1
    assert cost(nolimits, profile=profile, size="tres_grande").points == 34  # 34.2
    assert cost(nolimits, profile=profile, size="petite").points == 38


def test_declared_size_wins_over_size_mm(nolimits: NolimitsSystem) -> None:
    result = cost(nolimits, size="grande", size_mm=30)
    assert result.derived.size == "grande" and result.derived.size_from_mm == "moyenne"
    assert codes(result) == [("warning", "size_differs_from_mm", "size")]


@pytest.mark.parametrize(
    ("material", "inches", "en", "sv", "pv"),
    [
        ("bois", 10, 5, None, 5),  # L278 "Bois 5 - 1 par 2”"
        ("bois", 1, 5, None, 1),  # at least 1 PV (note 9)
        ("brique", 4, 6, 4, 4),  # L279 "Brique 6 4 1 par 1”"
        ("pierre", 4, 7, 5, 4),  # L280
        ("beton", 3, 8, 6, 6),  # L281 "béton 8 6 2 par 1”"
        ("plastbeton", 2, 8, 7, 6),  # L282 "plastbéton 8 7 3 par 1”"
    ],
)
def test_buildings(
    nolimits: NolimitsSystem, material: str, inches: int, en: int, sv: int | None, pv: int
) -> None:
    request = nolimits.building_model.model_validate({"material": material, "size_in": inches})
    building = nolimits.building(request)
    assert (en, sv, pv) == (building.EN, building.SV, building.PV)


# ------------------------------------------------------------- house rules and guidelines


def test_custom_ability_is_a_house_rule(nolimits: NolimitsSystem) -> None:
    # L17-18: a new ability at the cost the player set, if the opponent agrees.
    result = cost(nolimits, abilities=["determine", {"name": "Sang-froid", "points": 4}])
    assert result.points == cost(nolimits).points + 2 + 4
    assert codes(result) == [("warning", "house_rule", "abilities[1]")]
    assert result.derived.house_rules == ["Sang-froid (4 pts)"]
    assert result.valid


def test_custom_weapon_rule_is_a_house_rule(nolimits: NolimitsSystem) -> None:
    lance = {
        "name": "Lance-grappin",
        "CU": 4,
        "PC": [5, 0],
        "CdA": 1,
        "FO": 4,
        "DG": 1,
        "rules": [{"name": "Grappin", "points": 2}, "baionnette"],
    }
    result = cost(nolimits, weapons=[lance])
    assert result.derived.weapons[0].points == 1 + 2  # bayonet 1, house rule 2
    assert codes(result) == [("warning", "house_rule", "weapons[0].rules[0]")]
    assert result.derived.house_rules == ["Lance-grappin : Grappin (2 pts)"]


def test_duplicate_ability_is_charged_once(nolimits: NolimitsSystem) -> None:
    result = cost(nolimits, abilities=["agile", "agile"])
    assert result.points == cost(nolimits).points + 2
    assert codes(result) == [("error", "duplicate_ability", "abilities[1]")]


PISTOL = {"name": "Pistolet", "type": "pistolet", "CU": 3, "PC": [6, 1], "PI": [12, 0],
          "PL": [18, -1], "CdA": 1, "FO": 5, "DG": 1}  # fmt: skip
RIFLE = {"name": "Fusil", "type": "fusil", "CU": 4, "PC": [10, 1], "PI": [20, 0],
         "PL": [30, -1], "CdA": 1, "FO": 6, "DG": 1}  # fmt: skip


@pytest.mark.parametrize(
    ("weapons", "expected"),
    [
        ([PISTOL, RIFLE], []),
        # L201 "Un pistolet devrait avoir une force (FO) de 5."
        ([{**PISTOL, "FO": 6}], [("pistol_strength", "weapons[0].FO")]),
        # L202 "Un fusil devrait avoir une force (FO) de 5 ou de 6"
        ([{**RIFLE, "FO": 7}], [("rifle_strength", "weapons[0].FO")]),
        # L202 "... mais devrait avoir une plus grande portée qu'un pistolet."
        (
            [PISTOL, {**RIFLE, "PC": [6, 1], "PI": [12, 0], "PL": [18, -1]}],
            [("rifle_range", "weapons[1]")],
        ),
        # L203 "Une seule de ces valeurs peut être supérieur à 1"
        ([{**RIFLE, "CdA": 2, "DG": 2}], [("cda_and_dg_above_one", "weapons[0].DG")]),
        # L204 "Les armes automatiques devraient généralement avoir une cadence d'attaque élevée"
        ([{**RIFLE, "type": "automatique"}], [("automatic_low_cda", "weapons[0].CdA")]),
        # L171: a melee weapon's CU is 3 + its bonus.
        (
            [{"name": "Hache", "melee": True, "CU": 3, "CdA": 1, "FO": 2, "DG": 1}],
            [("melee_cu_not_derived", "weapons[0].CU")],
        ),
    ],
)
def test_guidelines_are_warnings(
    nolimits: NolimitsSystem, weapons: list[Any], expected: list[tuple[str, str]]
) -> None:
    result = cost(nolimits, weapons=weapons)
    assert [(i.code, i.path) for i in result.issues] == expected
    assert all(i.severity == "warning" for i in result.issues)
    assert result.valid


def test_a_cheaper_melee_cu_costs_more(nolimits: NolimitsSystem) -> None:
    axe = {"name": "Hache", "melee": True, "CdA": 1, "FO": 2, "DG": 1}
    assert weapon_points(nolimits, axe) == 6
    assert weapon_points(nolimits, {**axe, "CU": 4}) == 6 + 2  # one AC below 3 + 2
    assert weapon_points(nolimits, {**axe, "CU": 7}) == 6 - 4


@pytest.mark.parametrize(
    ("weapon", "code"),
    [
        ({"name": "Arc", "CU": 4, "CdA": 1, "FO": 4, "DG": 1}, "ranged_weapon_without_range"),
        ({"name": "Arc", "PC": [10, 0], "CdA": 1, "FO": 4, "DG": 1}, "missing_cu"),
        (
            {"name": "Lame", "melee": True, "PC": [1, 0], "CdA": 1, "FO": 1, "DG": 1},
            "melee_weapon_with_range",
        ),
        ("turbo_laser", "missing_cu"),  # a vehicle-mounted weapon carried by a model (L241)
    ],
)
def test_unplayable_weapons_are_errors(nolimits: NolimitsSystem, weapon: Any, code: str) -> None:
    result = cost(nolimits, weapons=[weapon])
    assert code in [i.code for i in result.issues if i.severity == "error"]
    assert not result.valid


def test_breakdown_adds_up_and_floors(nolimits: NolimitsSystem) -> None:
    weakling = {"AC": 0, "CT": 0, "CC": 0, "FO": 0, "EN": 0, "PV": 1, "CO": 0, "SV": 0}
    result = cost(nolimits, profile=weakling, weapons=[{**RIFLE, "FO": 0, "CU": 20}])
    # Weapons never cost less than 0; a model never less than 1 point.
    assert result.derived.weapons[0].points == 0
    assert result.points == 1
    assert sum(line.points for line in result.breakdown) == 1
    assert ("warning", "cost_floor", "") in codes(result)

"""Infinity N2 army building, engine only: SWC, Lieutenant, AVA, combat groups, orders.

Lnn = line of shared/rules/infinity-n2.fr.txt. The troopers are Caserne's invented faction
(data/systems/infinity/catalogue.toml) or invented in the test.
"""

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app.systems.infinity import (
    Catalogue,
    InfinityCostRequest,
    InfinityResult,
    InfinityRoster,
    InfinityTrooper,
    InfinityTrooperCost,
    InfinityTrooperOption,
    build_catalogue,
    cost_trooper,
    swc_available,
    validate_roster,
)

CATALOGUE_PATH = Path(__file__).resolve().parents[2] / "data/systems/infinity/catalogue.toml"


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    built = build_catalogue(tomllib.loads(CATALOGUE_PATH.read_text(encoding="utf-8")))
    assert not isinstance(built, list), built
    return built


def trooper(
    unit_id: str,
    *,
    orders: str = "regular",
    ava: int | None = None,
    impetuous: bool = False,
    skills: tuple[str, ...] = (),
    options: tuple[dict[str, Any], ...] = ({"id": "base", "name": "Fusil", "points": 10},),
) -> dict[str, Any]:
    """A trooper in the api-v1.md shape, invented for the test."""
    return {
        "id": unit_id,
        "name": unit_id.replace("_", " ").capitalize(),
        "orders": orders,
        "impetuous": impetuous,
        "ava": ava,
        "profile": {"MOV": [10, 5], "CC": 12, "TR": 11, "PH": 10, "VOL": 13, "BL": 1, "B": 1},
        "skills": list(skills),
        "options": list(options),
    }


def entry(unit: str, option: str, count: int = 1, group: int = 1, **more: Any) -> dict[str, Any]:
    return {"unit": unit, "option": option, "count": count, "group": group, **more}


# A Lieutenant and a Docteur, added so that only the rule under test speaks.
LIEUTENANT = entry("garde_de_brumeval", "fusil_lt")
DOCTOR = entry("chirurgienne_de_campagne", "pistolet")


def validate(
    catalogue: Catalogue,
    entries: list[dict[str, Any]],
    *,
    points_limit: int | None = 300,
    units: list[dict[str, Any]] | None = None,
    ava: bool = True,
) -> InfinityResult:
    document = {
        "system": "infinity",
        "name": "Test",
        "points_limit": points_limit,
        "entries": entries,
        "extras": {"units": units or [], "ava": ava},
    }
    return validate_roster(catalogue, InfinityRoster.model_validate(document))


def codes(result: InfinityResult) -> list[str]:
    """The list-level issue codes, in order."""
    return [issue.code for issue in result.issues]


def entry_issues(result: InfinityResult) -> list[list[tuple[str, str]]]:
    return [[(issue.code, issue.path) for issue in e.issues] for e in result.entries]


# ---------------------------------------------------------------- SWC (L80-83)


@pytest.mark.parametrize(
    ("points_limit", "available"),
    [(49, 0), (50, 1), (299, 5), (300, 6), (301, 6), (349, 6), (350, 7)],
)
def test_swc_available_by_whole_tranche(
    catalogue: Catalogue, points_limit: int, available: int
) -> None:
    # L81: « Chaque tranche de 50 points d'armée donne 1 point de SWC [...] dans une partie de
    # 300 points, vous disposerez de 6 points de SWC. »
    assert swc_available(catalogue.rules, points_limit) == available
    result = validate(catalogue, [LIEUTENANT, DOCTOR], points_limit=points_limit)
    assert result.derived.swc.available == available


def test_swc_without_points_limit_comes_from_the_army_points(catalogue: Catalogue) -> None:
    # L81 « Chaque tranche de 50 points d'armée »: with no game size, the army's own points.
    roster = [LIEUTENANT, DOCTOR, entry("garde_de_brumeval", "fusil", count=3)]
    roster.append(entry("garde_de_brumeval", "mitrailleuse", group=2))
    result = validate(catalogue, roster, points_limit=None)
    assert result.points == 9 + 14 + 27 + 18
    assert (result.derived.swc.used, result.derived.swc.available) == (1, 1)
    assert codes(result) == []
    roster.append(entry("garde_de_brumeval", "mitrailleuse", group=2))
    result = validate(catalogue, roster, points_limit=None)
    assert (result.points, result.derived.swc.used, result.derived.swc.available) == (86, 2, 1)
    assert codes(result) == ["swc_over_limit"]
    assert "une armée de 86 points sans format de partie" in result.issues[0].message


@pytest.mark.parametrize(
    ("points_limit", "codes_expected"),
    [(299, ["swc_over_limit"]), (300, []), (301, [])],
)
def test_six_swc_at_299_300_301_points(
    catalogue: Catalogue, points_limit: int, codes_expected: list[str]
) -> None:
    # L81: 300 points give 6 SWC; 299 only 5 (an unfinished tranche gives nothing).
    six = entry("garde_de_brumeval", "mitrailleuse", count=6)  # SWC 1 each
    result = validate(catalogue, [LIEUTENANT, DOCTOR, six], points_limit=points_limit)
    assert result.derived.swc.used == 6
    assert codes(result) == codes_expected


def test_swc_six_and_a_half_against_six(catalogue: Catalogue) -> None:
    # L81: « dans une partie de 300 points, vous disposerez de 6 points de SWC ».
    roster = [
        LIEUTENANT,
        DOCTOR,
        entry("garde_de_brumeval", "mitrailleuse", count=5),  # 5 × 1
        entry("sapeur_des_tourbieres", "lance_missiles"),  # 1.5
    ]
    result = validate(catalogue, roster)
    assert (result.derived.swc.used, result.derived.swc.available) == (6.5, 6)
    assert codes(result) == ["swc_over_limit"]
    assert result.issues[0].severity == "error"
    assert "6,5 SWC dépensés pour 6 disponibles" in result.issues[0].message
    derived = json.loads(result.model_dump_json())["derived"]
    assert derived["swc"] == {"used": 6.5, "available": 6}


def test_swc_sums_exactly(catalogue: Catalogue) -> None:
    # L81: « Pour chaque unité le SWC est spécifié pour chaque figurine disposant d'une arme
    # de support »: 0.5 × 3 + 1 = 2.5, exactly.
    roster = [
        LIEUTENANT,
        DOCTOR,
        entry("garde_de_brumeval", "lance_grenades", count=3),
        entry("garde_de_brumeval", "mitrailleuse", group=2),
    ]
    result = validate(catalogue, roster)
    assert result.derived.swc.used == 2.5
    assert [e.derived.swc_total for e in result.entries] == [0, 0, 1.5, 1]
    # Twenty halves make 10, not 9.999...: the sum is exact.
    halves = trooper("demi", options=({"id": "x", "name": "X", "points": 1, "swc": 0.5},))
    many = [entry("demi", "x", count=10, group=g) for g in (2, 3)]
    result = validate(catalogue, [LIEUTENANT, DOCTOR, *many], units=[halves])
    assert result.derived.swc.used == 10
    assert '"swc":{"used":10,"available":6}' in result.model_dump_json()


def test_lieutenant_swc_counts(catalogue: Catalogue) -> None:
    # L83: the Lieutenant is chosen « en dépensant le nombre de point de SWC requit ».
    result = validate(catalogue, [entry("sergent_veteran", "fusil_lourd_lt"), DOCTOR])
    assert result.derived.swc.used == 1
    assert result.derived.lieutenant == "Sergent vétéran"


@pytest.mark.parametrize("swc", [0.3, 0.25, 1e-17, -0.5, True, "1"])
def test_swc_is_a_multiple_of_a_half(swc: object) -> None:
    # L81 prints only « SWC : 0 »; Caserne accepts halves (decision), nothing finer.
    with pytest.raises(ValidationError):
        InfinityTrooperOption.model_validate({"id": "x", "name": "X", "points": 1, "swc": swc})
    assert InfinityTrooperOption.model_validate(
        {"id": "x", "name": "X", "points": 1, "swc": 1.5}
    ).swc


# ---------------------------------------------------------------- Lieutenant (L14, L83-84)


def test_no_lieutenant(catalogue: Catalogue) -> None:
    # L83: « vous devez en désigner une comme Lieutenant ou Chef d'armée ».
    result = validate(catalogue, [entry("garde_de_brumeval", "fusil", count=3), DOCTOR])
    assert codes(result) == ["no_lieutenant"]
    assert result.derived.lieutenant is None


def test_two_lieutenants(catalogue: Catalogue) -> None:
    # L83: « en désigner une »: one Lieutenant, counted over every entry and its count.
    two_entries = [LIEUTENANT, entry("sergent_veteran", "fusil_lourd_lt"), DOCTOR]
    assert codes(validate(catalogue, two_entries)) == ["several_lieutenants"]
    one_entry_of_two = [entry("garde_de_brumeval", "fusil_lt", count=2), DOCTOR]
    result = validate(catalogue, one_entry_of_two)
    assert codes(result) == ["several_lieutenants"]
    assert result.derived.lieutenant is None


def test_irregular_lieutenant_needs_an_irregular_army(catalogue: Catalogue) -> None:
    # L14: « Un irrégulier peut devenir Lieutenant uniquement si toutes les troupes sous son
    # commandement sont également des irréguliers. »
    irregulars = [entry("maraudeur", "fusil_lt"), entry("ecorcheur_des_marais", "lames", 2)]
    result = validate(catalogue, irregulars)
    assert codes(result) == ["no_medic"]
    assert entry_issues(result) == [[], []]
    result = validate(catalogue, [*irregulars, DOCTOR])
    assert entry_issues(result) == [[("irregular_lieutenant", "entries[0].option")], [], []]
    assert result.entries[0].issues[0].severity == "error"


def test_regular_lieutenant_may_lead_irregulars(catalogue: Catalogue) -> None:
    # L14 restricts irregular Lieutenants only.
    result = validate(catalogue, [LIEUTENANT, DOCTOR, entry("maraudeur", "fusil", 2)])
    assert codes(result) == [] and entry_issues(result) == [[], [], []]


# ---------------------------------------------------------------- AVA (L76-79)


def test_ava_exceeded_across_two_groups_and_options(catalogue: Catalogue) -> None:
    # L76: AVA « détermine le nombre de figurine d'un type qu'il est possible d'utiliser pour
    # une bataille »: the Sergent vétéran (AVA 2) counted over groups and options.
    roster = [
        LIEUTENANT,
        DOCTOR,
        entry("sergent_veteran", "fusil_lourd", group=1),
        entry("sergent_veteran", "fusil_precision", group=2),
    ]
    assert codes(validate(catalogue, roster)) == []
    roster.append(entry("sergent_veteran", "fusil_lourd", group=2))
    result = validate(catalogue, roster)
    assert codes(result) == ["ava_exceeded"]
    assert "Sergent vétéran : 3 figurines pour une Disponibilité (AVA) de 2" in (
        result.issues[0].message
    )
    line = next(a for a in result.derived.availability if a.unit == "sergent_veteran")
    assert (line.troopers, line.ava) == (3, 2)


def test_ava_counts_the_lieutenant(catalogue: Catalogue) -> None:
    # L76 counts every trooper of the type; the Lieutenant is one of them (decision).
    roster = [entry("sergent_veteran", "fusil_lourd_lt"), DOCTOR]
    assert codes(validate(catalogue, [*roster, entry("sergent_veteran", "fusil_lourd")])) == []
    roster.append(entry("sergent_veteran", "fusil_lourd", count=2))
    assert codes(validate(catalogue, roster)) == ["ava_exceeded"]


def test_ava_total_has_no_cap(catalogue: Catalogue) -> None:
    # L79: « Disponibilité Totale [...] autant de figurines que vous le souhaitez ».
    gardes = [entry("garde_de_brumeval", "fusil", count=9, group=g) for g in (2, 3, 4)]
    result = validate(catalogue, [LIEUTENANT, DOCTOR, *gardes], points_limit=None)
    assert codes(result) == []
    line = next(a for a in result.derived.availability if a.unit == "garde_de_brumeval")
    assert (line.troopers, line.ava) == (28, None)


def test_ava_off_for_an_introductory_game(catalogue: Catalogue) -> None:
    # L78: AVA « sera utilisée quand vous jouerez avec une armée complète »; an introductory
    # game (extras.ava false) does without it.
    roster = [LIEUTENANT, DOCTOR, entry("tisseuse_de_code", "fusil", count=3)]
    assert codes(validate(catalogue, roster)) == ["ava_exceeded"]
    result = validate(catalogue, roster, ava=False)
    assert codes(result) == []
    assert result.derived.ava_enforced is False


# ---------------------------------------------------------------- combat groups (L85)


def test_eleven_troopers_in_one_group(catalogue: Catalogue) -> None:
    # L85: « Le joueur choisi le nombre de figurines pour chaque groupe, mais ne doit jamais
    # dépasser 10. »
    roster = [LIEUTENANT, DOCTOR, entry("garde_de_brumeval", "fusil", count=9)]
    result = validate(catalogue, roster)
    assert (result.derived.troopers, codes(result)) == (11, ["combat_group_too_large"])
    assert "Groupe de combat 1 : 11 figurines, 10 au plus" in result.issues[0].message
    roster[2] = entry("garde_de_brumeval", "fusil", count=8)
    assert codes(validate(catalogue, roster)) == []  # 10 is allowed
    roster.append(entry("garde_de_brumeval", "fusil", group=2))
    result = validate(catalogue, roster)
    assert codes(result) == []  # 11 troopers split 10 + 1
    assert [(g.group, g.troopers) for g in result.derived.groups] == [(1, 10), (2, 1)]


def test_irregulars_and_reserves_count_in_the_ten(catalogue: Catalogue) -> None:
    # L85 « le total des figurines »: every trooper counts, irregular or held off the table.
    roster = [
        LIEUTENANT,
        DOCTOR,
        entry("garde_de_brumeval", "fusil", count=4),
        entry("maraudeur", "fusil", count=2),
        entry("ecorcheur_des_marais", "lames", count=1),
        entry("sauteur_de_brume", "fusil", count=2, reserve=True),
    ]
    assert codes(validate(catalogue, roster)) == ["combat_group_too_large"]


def test_groups_in_increasing_order(catalogue: Catalogue) -> None:
    # L85: each group has its own Réserve d'Ordres; api-v1.md lists them in increasing order.
    roster = [
        entry("garde_de_brumeval", "fusil", group=3),
        LIEUTENANT,
        entry("chirurgienne_de_campagne", "pistolet", group=2),
    ]
    result = validate(catalogue, roster)
    assert [g.group for g in result.derived.groups] == [1, 2, 3]


# ---------------------------------------------------------------- orders (L14, L20, L45, L85)


def test_irregular_and_impetuous_orders(catalogue: Catalogue) -> None:
    # L14: an irregular « n'ajoute pas ses ordres à la Réserve d'Ordres »; L45: an impetuous
    # trooper makes « un Ordre Impétueux gratuitement », on top of its own order (L85: each
    # group has its own Réserve d'Ordres).
    charger = trooper("chargeur", impetuous=True)
    roster = [
        LIEUTENANT,
        DOCTOR,
        entry("garde_de_brumeval", "fusil", count=2),
        entry("maraudeur", "fusil"),  # irregular
        entry("ecorcheur_des_marais", "lames", count=2),  # irregular and impetuous
        entry("chargeur", "base", group=2),  # regular and impetuous
    ]
    result = validate(catalogue, roster, units=[charger])
    groups = [g.model_dump() for g in result.derived.groups]
    assert groups == [
        {
            "group": 1,
            "troopers": 7,
            "pool": 4,
            "pool_at_deployment": 4,
            "irregular_orders": 3,
            "impetuous_orders": 2,
        },
        {
            "group": 2,
            "troopers": 1,
            "pool": 1,
            "pool_at_deployment": 1,
            "irregular_orders": 0,
            "impetuous_orders": 1,
        },
    ]
    assert result.entries[4].derived.orders == "irregular"
    assert result.entries[4].derived.impetuous is True


# ---------------------------------------------------------------- AD: Combat Jump (L20, L84)


def test_airborne_trooper_in_reserve(catalogue: Catalogue) -> None:
    # L20: troopers not deployed « n'ajoutent pas leur Ordre à la Réserve d'Ordres temps
    # qu'elles ne sont pas sur la table ».
    roster = [LIEUTENANT, DOCTOR, entry("sauteur_de_brume", "fusil", count=2, reserve=True)]
    result = validate(catalogue, roster)
    assert codes(result) == [] and entry_issues(result) == [[], [], []]
    (group,) = result.derived.groups
    assert (group.pool, group.pool_at_deployment) == (4, 2)
    assert result.entries[2].derived.reserve and result.entries[2].derived.airborne


def test_airborne_lieutenant_in_reserve(catalogue: Catalogue) -> None:
    # L20: « Même si le Lieutenant dispose de cette aptitude spéciale il doit obligatoirement
    # être déployé au début de la partie »; L84.
    roster = [DOCTOR, entry("sauteur_de_brume", "fusil_lt", reserve=True)]
    result = validate(catalogue, roster)
    assert entry_issues(result) == [[], [("lieutenant_in_reserve", "entries[1].reserve")]]
    assert codes(result) == []
    roster[1]["reserve"] = False
    assert entry_issues(validate(catalogue, roster)) == [[], []]


def test_reserve_without_airborne(catalogue: Catalogue) -> None:
    # L20: only « les figurines disposant de l'aptitude AD : Combat Jump » may stay off table.
    roster = [LIEUTENANT, DOCTOR, entry("garde_de_brumeval", "fusil", reserve=True)]
    result = validate(catalogue, roster)
    assert entry_issues(result) == [[], [], [("reserve_without_airborne", "entries[2].reserve")]]
    roster[0] = {**LIEUTENANT, "reserve": True}
    assert entry_issues(validate(catalogue, roster))[0] == [
        ("reserve_without_airborne", "entries[0].reserve"),
        ("lieutenant_in_reserve", "entries[0].reserve"),
    ]


# ---------------------------------------------------------------- medics, mines, repeaters


def test_no_medic_is_a_warning(catalogue: Catalogue) -> None:
    # L130: « Si le joueur n'a pas de Docteur ou de Paramédical [...] elle est directement
    # morte et retirée du jeu. »
    result = validate(catalogue, [LIEUTENANT])
    assert codes(result) == ["no_medic"]
    assert result.issues[0].severity == "warning"
    assert result.valid
    assert validate(catalogue, [LIEUTENANT, DOCTOR]).derived.medics == 1  # L131 Docteur
    medic = trooper("infirmier", skills=("paramedical",))  # L135 Paramédical
    result = validate(catalogue, [LIEUTENANT, entry("infirmier", "base")], units=[medic])
    assert codes(result) == []


def test_mines_and_repeaters_three_each(catalogue: Catalogue) -> None:
    # L117: « Les figurines ayant des mines dans leur équipement en transportent un total de 3 »;
    # L141: « Chaque figurine avec l'équipement Répétiteur déployant en possède 3. »
    miner = trooper(
        "mineur",
        options=(
            {
                "id": "m",
                "name": "Mines",
                "points": 5,
                "equipment": ["mines", "repeteur_deployable"],
            },
        ),
    )
    roster = [
        LIEUTENANT,
        DOCTOR,
        entry("sapeur_des_tourbieres", "mines"),
        entry("tisseuse_de_code", "pistolet_repeteur"),
        entry("mineur", "m", count=2, group=2),
    ]
    result = validate(catalogue, roster, units=[miner])
    assert (result.derived.mines, result.derived.repeaters) == (3 + 6, 3 + 6)
    assert [(e.derived.mines, e.derived.repeaters) for e in result.entries[2:]] == [
        (3, 0),
        (0, 3),
        (3, 3),
    ]
    assert result.derived.hackers == 1


# ---------------------------------------------------------------- points, entries, units


def test_points_within_the_game_size(catalogue: Catalogue) -> None:
    # L81 « une partie de 300 points »: the game size is the budget (decision).
    roster = [LIEUTENANT, DOCTOR, entry("garde_de_brumeval", "fusil", count=8)]
    result = validate(catalogue, roster, points_limit=95)
    assert result.points == 9 + 14 + 72
    assert codes(result) == []
    result = validate(catalogue, roster, points_limit=94)
    assert codes(result) == ["over_points_limit"]
    assert result.issues[0].path == "points_limit"
    assert codes(validate(catalogue, roster, points_limit=None)) == []


def test_unknown_unit_and_option_are_issues(catalogue: Catalogue) -> None:
    # api-v1.md: engines report problems as issues; the entry is listed, counted nowhere.
    roster = [LIEUTENANT, DOCTOR, entry("inconnu", "x"), entry("garde_de_brumeval", "laser")]
    result = validate(catalogue, roster)
    assert entry_issues(result)[2:] == [
        [("unknown_unit", "entries[2].unit")],
        [("unknown_option", "entries[3].option")],
    ]
    assert [(e.points, e.counted) for e in result.entries[2:]] == [(0, False), (0, False)]
    assert result.derived.troopers == 2 and result.points == 23


def test_extras_units_come_before_the_catalogue(catalogue: Catalogue) -> None:
    # api-v1.md: « `unit` names a trooper of `extras.units`, else of the catalogue ».
    own = trooper("garde_de_brumeval", options=({"id": "fusil", "name": "F", "points": 40},))
    result = validate(catalogue, [LIEUTENANT, entry("garde_de_brumeval", "fusil")], units=[own])
    assert entry_issues(result)[0] == [("unknown_option", "entries[0].option")]
    assert result.entries[1].points == 40


def test_repeated_ids_are_issues_and_the_first_counts(catalogue: Catalogue) -> None:
    # JSON Schema cannot say "unique by id": a schema-valid document is answered, with an
    # error on the repeated id (decision 15).
    twice = trooper("t", options=({"id": "a", "name": "A", "points": 1},) * 2)
    costed = cost_trooper(
        catalogue, InfinityCostRequest.model_validate({"unit": twice, "option": "a"})
    )
    assert costed.points == 1 and costed.valid is False
    assert [(i.code, i.path) for i in costed.issues] == [("duplicate_option", "unit.options[1].id")]
    other = trooper("t", options=({"id": "b", "name": "B", "points": 50},))
    result = validate(catalogue, [entry("t", "a"), LIEUTENANT, DOCTOR], units=[twice, other])
    assert result.points == 1 + 9 + 14  # the first "t" counts
    assert [(i.code, i.path) for i in result.issues] == [
        ("duplicate_option", "extras.units[0].options[1].id"),
        ("duplicate_unit", "extras.units[1].id"),
    ]


def test_documents_are_strict() -> None:
    # api-v1.md: malformed documents are refused (422), they are not issues.
    bad_entries: list[dict[str, Any]] = [{"group": 0}, {"count": 0}, {"reserve": "yes"}, {"x": 1}]
    for bad in bad_entries:
        with pytest.raises(ValidationError):
            InfinityRoster.model_validate(
                {"system": "infinity", "entries": [{**entry("a", "b"), **bad}]}
            )
    with pytest.raises(ValidationError):
        InfinityTrooper.model_validate({**trooper("t"), "orders": "elite"})
    missing_ava = trooper("t")
    del missing_ava["ava"]
    with pytest.raises(ValidationError):
        InfinityTrooper.model_validate(missing_ava)  # api-v1.md: ava is an integer or null


# ---------------------------------------------------------------- the calculator


def test_cost_of_one_option(catalogue: Catalogue) -> None:
    # L81: the SWC « est spécifié pour chaque figurine »; the option's points, one line.
    unit = catalogue.unit("garde_de_brumeval")
    assert unit is not None
    costed = cost_trooper(catalogue, InfinityCostRequest(unit=unit, option="mitrailleuse"))
    assert costed.points == 18 and costed.valid
    assert [(line.id, line.points) for line in costed.breakdown] == [("mitrailleuse", 18)]
    assert costed.breakdown[0].label == "Garde de Brumeval : Mitrailleuse lourde (SWC 1)"
    body = json.loads(costed.model_dump_json())
    assert body["derived"]["swc"] == 1 and body["derived"]["ava"] is None
    lieutenant = cost_trooper(catalogue, InfinityCostRequest(unit=unit, option="fusil_lt"))
    assert lieutenant.derived.lieutenant and lieutenant.derived.swc == 0


def test_cost_from_a_json_body(catalogue: Catalogue) -> None:
    # The cost body of api-v1.md, with an invented trooper.
    body = {
        "unit": trooper(
            "eclaireur",
            ava=4,
            skills=("ad_combat_jump", "Sixième Sens N2"),
            options=({"id": "lg", "name": "Lance-grenades", "points": 13, "swc": 0.5},),
        ),
        "option": "lg",
    }
    costed = cost_trooper(catalogue, InfinityCostRequest.model_validate_json(json.dumps(body)))
    assert (costed.points, costed.derived.swc, costed.derived.airborne) == (13, 0.5, True)
    unknown = cost_trooper(catalogue, InfinityCostRequest.model_validate({**body, "option": "hmg"}))
    assert (unknown.points, unknown.breakdown, unknown.valid) == (0, [], False)
    assert [(i.code, i.path) for i in unknown.issues] == [("unknown_option", "option")]


def test_json_schemas_build_without_warnings() -> None:
    # The OpenAPI document describes every body (api-v1.md); pytest turns warnings into errors.
    for model in (InfinityCostRequest, InfinityRoster, InfinityTrooperCost, InfinityResult):
        for mode in ("validation", "serialization"):
            schema = model.model_json_schema(mode=mode)
            assert schema["type"] == "object"
    swc = InfinityTrooperOption.model_json_schema()["properties"]["swc"]
    assert (swc["type"], swc["multipleOf"]) == ("number", 0.5)

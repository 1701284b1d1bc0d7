"""The Infinity catalogue (data/systems/infinity/catalogue.toml): it loads, its example lists
give their expected issues, and a broken catalogue reports every problem at once.

Lnn = line of shared/rules/infinity-n2.fr.txt.
"""

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from app.systems.infinity import (
    Catalogue,
    InfinityCostRequest,
    InfinityResult,
    InfinityRoster,
    InfinityTrooperCost,
    build_catalogue,
    cost_trooper,
    example_documents,
    validate_roster,
)

CATALOGUE_PATH = Path(__file__).resolve().parents[2] / "data/systems/infinity/catalogue.toml"


def catalogue_data() -> dict[str, Any]:
    return tomllib.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    built = build_catalogue(catalogue_data())
    assert not isinstance(built, list), built
    return built


def test_catalogue_loads_without_problems(catalogue: Catalogue) -> None:
    assert catalogue.system.id == "infinity"
    assert [f.id for f in catalogue.factions] == ["compagnie_franche_de_brumeval"]
    assert "inventée par Caserne" in catalogue.factions[0].note
    # L81, L85, L117, L141
    rules = catalogue.rules
    assert (rules.points_per_swc, rules.max_group_size) == (50, 10)
    assert (rules.mines_per_trooper, rules.repeaters_per_trooper) == (3, 3)
    assert 6 <= len(catalogue.units) <= 8
    for skill in ("ad_combat_jump", "docteur", "paramedical", "hacker"):
        assert any(s.id == skill and s.source.startswith("L") for s in catalogue.skills)


def test_catalogue_covers_what_the_builder_checks(catalogue: Catalogue) -> None:
    units = catalogue.units
    options = [option for unit in units for option in unit.options]
    assert any(option.lieutenant for option in options)  # L83
    assert any(unit.orders == "irregular" for unit in units)  # L14
    assert any(unit.impetuous for unit in units)  # L44-45
    assert any("ad_combat_jump" in unit.skills for unit in units)  # L19-20
    assert any({"docteur", "paramedical"} & set(unit.skills) for unit in units)  # L131, L135
    assert any("hacker" in unit.skills for unit in units)  # L31
    assert any("mines" in option.equipment for option in options)  # L117
    assert any("repeteur_deployable" in option.equipment for option in options)  # L141
    assert any(option.swc == 0.5 for option in options)  # L81 (halves: decision)
    assert any(unit.ava is None for unit in units)  # L79 Total


@pytest.mark.parametrize(
    ("example_id", "total", "errors", "warnings"),
    [
        ("compagnie_de_brumeval", 300, [], []),
        ("bande_des_marais", 148, [], ["no_medic"]),
        (
            "liste_a_corriger",
            213,
            [
                "combat_group_too_large",
                "lieutenant_in_reserve",
                "reserve_without_airborne",
                "several_lieutenants",
                "swc_over_limit",
            ],
            ["no_medic"],
        ),
    ],
)
def test_every_example_gives_its_expected_issues(
    catalogue: Catalogue, example_id: str, total: int, errors: list[str], warnings: list[str]
) -> None:
    pairs = zip(catalogue.examples, example_documents(catalogue), strict=True)
    example, document = next((e, d) for e, d in pairs if e.id == example_id)
    result = validate_roster(catalogue, InfinityRoster.model_validate(document))
    issues = result.issues + [issue for e in result.entries for issue in e.issues]
    found = sorted(i.code for i in issues if i.severity == "error")
    assert (result.points, found) == (total, errors)
    assert found == sorted(example.expected_issue_codes)
    assert result.points == example.printed_total
    found = sorted(i.code for i in issues if i.severity == "warning")
    assert found == warnings == sorted(example.expected_warning_codes)


def test_every_catalogue_example_is_tested(catalogue: Catalogue) -> None:
    assert sorted(e.id for e in catalogue.examples) == [
        "bande_des_marais",
        "compagnie_de_brumeval",
        "liste_a_corriger",
    ]


def test_the_valid_company(catalogue: Catalogue) -> None:
    # L81 (6 SWC at 300), L83 (one Lieutenant), L85 (groups of 10 at most, own orders),
    # L20 (a Sauteur de brume in reserve leaves the pool at deployment).
    document = example_documents(catalogue)[0]
    assert document["name"] == "Compagnie de Brumeval (300 points)"
    result = validate_roster(catalogue, InfinityRoster.model_validate(document))
    derived = result.derived.model_dump(mode="json")
    assert derived["swc"] == {"used": 5.5, "available": 6}
    assert derived["troopers"] == 18
    assert derived["groups"] == [
        {
            "group": 1,
            "troopers": 10,
            "pool": 9,
            "pool_at_deployment": 9,
            "irregular_orders": 1,
            "impetuous_orders": 1,
        },
        {
            "group": 2,
            "troopers": 8,
            "pool": 4,
            "pool_at_deployment": 3,
            "irregular_orders": 4,
            "impetuous_orders": 2,
        },
    ]
    assert (derived["lieutenant"], derived["mines"], derived["repeaters"]) == (
        "Sergent vétéran",
        3,
        3,
    )


def test_a_broken_catalogue_reports_every_problem() -> None:
    data = catalogue_data()
    data["units"].append(copy.deepcopy(data["units"][0]))  # duplicate unit id
    data["units"][1]["faction"] = "inconnue"
    data["units"][1]["skills"] = ["courage", "vol_plane"]
    data["units"][2]["options"][0]["equipment"] = ["grappin"]
    data["skills"] = [s for s in data["skills"] if s["id"] != "hacker"]
    data["equipment"].append(copy.deepcopy(data["equipment"][0]))
    data["examples"][0]["entries"][0]["unit"] = "fantome"
    data["examples"][0]["entries"][1]["option"] = "canon"
    data["notes"].append(copy.deepcopy(data["notes"][0]))
    data["units"][3]["options"].append(copy.deepcopy(data["units"][3]["options"][0]))
    problems = build_catalogue(data)
    assert isinstance(problems, list)
    garde = data["units"][0]["id"]
    note = data["notes"][0]["id"]
    assert sorted(problems) == sorted(
        [
            "equipment[3].id: duplicate id 'mines'",
            f"units[8].id: duplicate id {garde!r}",
            f"units[3].options[{len(data['units'][3]['options']) - 1}].id: duplicate id "
            f"{data['units'][3]['options'][0]['id']!r}",
            f"notes[{len(data['notes']) - 1}].id: duplicate id {note!r}",
            "skills: missing skill 'hacker' (fixed by api-v1.md)",
            "units[1].faction: unknown faction 'inconnue'",
            "units[1].skills[1]: unknown skill 'vol_plane'",
            "units[2].options[0].equipment[0]: unknown equipment 'grappin'",
            "units[6].skills[0]: unknown skill 'hacker'",
            "examples[0].entries[0].unit: unknown unit 'fantome'",
            "examples[0].entries[1].option: 'garde_de_brumeval' has no option 'canon'",
        ]
    )


def test_a_malformed_catalogue_reports_every_field() -> None:
    data = catalogue_data()
    data["units"][0]["options"][2]["swc"] = 0.3  # not a multiple of 0.5
    data["units"][1]["orders"] = "elite"
    del data["rules"]["max_group_size"]
    data["surprise"] = 1
    problems = build_catalogue(data)
    assert isinstance(problems, list)
    assert len(problems) == 4
    where = sorted(problem.split(":")[0] for problem in problems)
    assert where == [
        "rules.max_group_size",
        "surprise",
        "units.0.options.2.swc",
        "units.1.orders",
    ]


def test_json_round_trips(catalogue: Catalogue) -> None:
    """What the API sends parses back, unchanged, with the same models."""
    for document in example_documents(catalogue):
        roster = InfinityRoster.model_validate(document)
        again = InfinityRoster.model_validate_json(roster.model_dump_json())
        assert again.model_dump(mode="json") == roster.model_dump(mode="json")
        result = validate_roster(catalogue, roster)
        parsed = InfinityResult.model_validate_json(result.model_dump_json())
        assert parsed.model_dump(mode="json") == result.model_dump(mode="json")
    for unit in catalogue.units:
        trooper = unit.model_dump(mode="json", exclude={"faction"})
        for option in unit.options:
            request = InfinityCostRequest.model_validate({"unit": trooper, "option": option.id})
            costed = cost_trooper(catalogue, request)
            assert costed.points == option.points and costed.valid
            parsed_cost = InfinityTrooperCost.model_validate_json(costed.model_dump_json())
            assert parsed_cost.model_dump(mode="json") == costed.model_dump(mode="json")

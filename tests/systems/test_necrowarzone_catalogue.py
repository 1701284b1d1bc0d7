"""Necromunda–Warzone catalogue: its tables as printed, its examples, and every problem of a
broken one. Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from app.systems.necrowarzone import (
    Catalogue,
    NecrowarzoneSystem,
    build,
    cost_figure,
    example_document,
    validate_roster,
)

CATALOGUE = Path(__file__).parents[2] / "data" / "systems" / "necrowarzone" / "catalogue.toml"
RULES = Path(__file__).parents[3] / "shared" / "rules" / "necromunda-warzone.fr.txt"


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def catalogue(data: dict[str, Any]) -> Catalogue:
    system = build(data)
    assert isinstance(system, NecrowarzoneSystem), system
    return system.data


def test_loads_without_problems(catalogue: Catalogue) -> None:
    assert catalogue.system.id == "necrowarzone"
    assert catalogue.system.rules_version
    assert catalogue.system.catalogue_version


def test_action_bands_as_printed(catalogue: Catalogue) -> None:
    assert [
        (b.xp_min, b.xp_max, b.actions, b.leader_actions, b.source) for b in catalogue.action_bands
    ] == [
        (0, 100, 2, 3, "L9"),  # L9 « 0-100-----------------2 (3 pour un chef de gang) »
        (101, 400, 3, 4, "L10"),  # L10 « 101-400--------------3 (4 pour un chef de gang) »
        (401, None, 4, 5, "L11"),  # L11 « 401+------------------4 (5 pour un chef de gang) »
    ]
    # L78 « 1 Blessure légère -1CC/-1CT/-1 Action (minimum 1) »
    wound = catalogue.light_wound
    assert (wound.cc, wound.ct, wound.actions, wound.minimum) == (-1, -1, -1, 1)


def test_to_hit_table_as_printed(catalogue: Catalogue) -> None:
    # L38 « CT----------------------1 2 3 4 5 6 7 8 9 10 »
    # L39 « Résultat---------------6 5 4 3 2 1 0 -1 -2 -3 »
    assert catalogue.to_hit_scores == dict(
        zip(range(1, 11), [6, 5, 4, 3, 2, 1, 0, -1, -2, -3], strict=True)
    )


def test_shooting_modifiers_as_printed(catalogue: Catalogue) -> None:
    assert [
        (m.id, m.value, m.took_cover_value, m.source) for m in catalogue.shooting.modifiers
    ] == [
        ("cible_partiellement_a_couvert", -1, -2, "L41"),
        ("cible_a_couvert", -2, -3, "L42"),
        ("cible_apparaissant_disparaissant_ou_en_charge", -1, None, "L43"),
        ("cible_rapide", -1, None, "L44"),
        ("petite_cible", -1, None, "L45"),
        ("arme_lourde_sans_arc_bouter", -2, None, "L46, L23"),
        ("grande_cible", 1, None, "L47"),
        ("viser", 1, None, "L48, L19"),
        ("modificateur_arme", 1, None, "L49"),
    ]
    # L84 « S’il reste encore 25% ou plus d’un gang au tapis ou hors de combat »
    assert catalogue.rout.percent == 25


def test_texts_are_copied_from_their_lines(catalogue: Catalogue) -> None:
    """Each table row keeps the words of the line its `source` names, apostrophes included."""
    if not RULES.exists():
        pytest.skip(f"{RULES} is not here")
    lines = RULES.read_text(encoding="utf-8").replace("<b>", "").replace("</b>", "").splitlines()
    sourced = [
        *((band.source, band.text) for band in catalogue.action_bands),
        (catalogue.light_wound.source, catalogue.light_wound.text),
        (catalogue.shooting.source, catalogue.shooting.text),
        *((modifier.source, modifier.text) for modifier in catalogue.shooting.modifiers),
        (catalogue.rout.source, catalogue.rout.text),
    ]
    for source, text in sourced:
        first = int(source.split(",")[0].split("-")[0].removeprefix("L"))
        assert text in lines[first - 1], source


def test_sample_figures_are_valid(catalogue: Catalogue) -> None:
    assert [sample.id for sample in catalogue.figures] == [
        "chef_de_gang",
        "ganger",
        "ganger_arme_lourde",
        "novice",
    ]
    for sample in catalogue.figures:
        assert cost_figure(catalogue, sample.figure).issues == []


@pytest.mark.parametrize(
    ("example_id", "derived"),
    [
        # The api-v1.md example: 8 figures, 18 actions, 355 XP, initiative 63, rout 2.
        ("rats_de_la_ruche", (8, 18, 355, 63, 2)),
        # chef 3 + ganger with a light wound 2 - 1 (L78) + 2 novices 2 each.
        ("traine_savates", (4, 8, 104, 63, 1)),
    ],
)
def test_examples(
    catalogue: Catalogue, example_id: str, derived: tuple[int, int, int, int, int]
) -> None:
    example = next(e for e in catalogue.examples if e.id == example_id)
    roster_model = NecrowarzoneSystem(catalogue).roster_model
    result = validate_roster(catalogue, roster_model.model_validate(example_document(example)))  # type: ignore[arg-type]
    assert [i.code for i in result.issues] == example.expected_issue_codes == []
    assert result.valid
    d = result.derived
    assert (d.figures, d.actions_total, d.xp_total, d.initiative_xp, d.rout_threshold) == derived


@pytest.fixture(scope="module")
def roster_model(catalogue: Catalogue) -> type[BaseModel]:
    return NecrowarzoneSystem(catalogue).roster_model


@pytest.mark.parametrize(
    "entry",
    [
        {"unit": "champion"},  # not a catalogue figure: refused, code unknown_id
        {},  # neither unit nor custom
        {"unit": "ganger", "custom": {"profile": {}}},
        {"unit": "ganger", "count": 0},
        {"unit": "ganger", "count": 101},
        {"unit": "ganger", "points": 10},
    ],
)
def test_refused_entries(roster_model: type[BaseModel], entry: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        roster_model.model_validate({"system": "necrowarzone", "entries": [entry]})


@pytest.mark.parametrize(
    "document",
    [
        {"system": "dcsystem"},
        {"system": "necrowarzone", "points_limit": 0},
        {"system": "necrowarzone", "extras": {"hidden_moves": []}},
        {"system": "necrowarzone", "name": "a\x00b"},
    ],
)
def test_refused_documents(roster_model: type[BaseModel], document: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        roster_model.model_validate(document)


def test_unknown_figure_code(roster_model: type[BaseModel]) -> None:
    with pytest.raises(ValidationError) as caught:
        roster_model.model_validate({"system": "necrowarzone", "entries": [{"unit": "champion"}]})
    assert [e["type"] for e in caught.value.errors()] == ["unknown_id"]


def test_schema_names_the_figures(roster_model: type[BaseModel]) -> None:
    schema = str(roster_model.model_json_schema())
    assert "chef_de_gang" in schema and "Figure" in schema


def test_broken_catalogue_reports_every_problem(data: dict[str, Any]) -> None:
    broken = copy.deepcopy(data)
    bands = broken["action_bands"]
    bands[1]["xp_min"] = 102  # a gap after 100
    del bands[2]
    bands.append({**bands[0], "xp_min": 401, "xp_max": 500})  # the last band closed
    scores = broken["to_hit"]["scores"]
    scores[9] = {"ct": 9, "score": -1}  # CT 9 twice, CT 10 missing, score not decreasing
    modifiers = broken["shooting"]["modifiers"]
    modifiers[0]["kind"] = "condition"  # a cover row as a condition
    modifiers[4]["took_cover_value"] = -2  # a condition with a bracketed value
    del modifiers[7]  # viser missing
    broken["light_wound"]["minimum"] = 0
    figures = broken["figures"]
    figures[1]["figure"]["xp"] = -3
    figures[2]["figure"]["profile"]["CT"] = 11
    figures[3]["id"] = "ganger"
    broken["examples"][0]["entries"][0]["unit"] = "champion"
    broken["examples"][1]["entries"][0] = {"count": 1}
    broken["notes"][1]["id"] = broken["notes"][0]["id"]

    problems = build(broken)
    assert isinstance(problems, list)
    expected = [
        "action_bands[1].xp_min: should be 101",
        "action_bands[2].xp_max: the last band is open-ended",
        "to_hit.scores[9].ct: CT 9 is already in the table",
        "to_hit.scores: missing CT [10]",
        "to_hit.scores: a better CT must need a lower score",
        "shooting.modifiers[0].kind: 'cible_partiellement_a_couvert' is a 'couvert' modifier",
        "shooting.modifiers[4].took_cover_value: cover rows, and they only",
        "shooting.modifiers: missing 'viser'",
        "light_wound.minimum: a figure keeps at least 1 action",
        "figures[1].figure.xp: invalid_xp",
        "figures[2].figure.profile.CT: ct_off_table",
        "figures[3].id: duplicate id 'ganger'",
        "examples[0].entries[0].unit: unknown figure 'champion'",
        "examples[1].entries[0]: give either unit or custom",
        "examples[1].entries[2].unit: unknown figure 'novice'",  # renamed above
        f"notes[1].id: duplicate id {data['notes'][0]['id']!r}",
    ]
    for start in expected:
        assert any(problem.startswith(start) for problem in problems), (start, problems)
    assert len(problems) == len(expected)


def test_malformed_catalogue_reports_every_field(data: dict[str, Any]) -> None:
    broken = copy.deepcopy(data)
    del broken["system"]["name"]
    broken["rout"]["percent"] = 0
    broken["shooting"]["modifiers"][2]["id"] = "sous_la_pluie"
    broken["to_hit"]["colour"] = "rouge"
    broken["action_bands"] = []
    problems = build(broken)
    assert isinstance(problems, list)
    assert [problem.split(":")[0] for problem in problems] == [
        "system.name",
        "action_bands",
        "to_hit.colour",
        "shooting.modifiers.2.id",
        "rout.percent",
    ]

"""Bastos catalogue, figure sheet and band validation, engine only.

Lnnn = line of shared/rules/pour-quelques-bastos-de-plus.fr.txt.
"""

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from app.systems.bastos import (
    BastosFigure,
    BastosResult,
    BastosSystem,
    Catalogue,
    cost_figure,
    example_document,
    load_catalogue,
    validate_roster,
)

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "data" / "systems" / "bastos" / "catalogue.toml"
RULES = ROOT.parent / "shared" / "rules" / "pour-quelques-bastos-de-plus.fr.txt"


def catalogue_data() -> dict[str, Any]:
    return tomllib.loads(CATALOGUE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    loaded = load_catalogue(catalogue_data())
    assert not isinstance(loaded, list), loaded
    return loaded


@pytest.fixture(scope="module")
def roster_model(catalogue: Catalogue) -> type[BaseModel]:
    return BastosSystem(catalogue).roster_model


def figure(rep: int, weapon: str | None = "mitraillette", **flags: bool) -> dict[str, Any]:
    return {"rep": rep, "leader": False, "star": False, "weapon": weapon, **flags}


def validate(catalogue: Catalogue, model: type[BaseModel], **document: Any) -> BastosResult:
    roster: Any = model.model_validate({"system": "bastos", **document})
    return validate_roster(catalogue, roster)


def codes(issues: list[Any]) -> list[tuple[str, str, str]]:
    return [(issue.severity, issue.code, issue.path) for issue in issues]


# ------------------------------------------------------------------ the weapon table


WEAPONS = [
    # id, range_cm, rate, spread_cm, impact, class
    ("revolver", 30, 1, None, 2, 1),  # L21-29 « Revolver 30cm 1 2 1 »
    ("pistolet_45", 30, 2, 5.0, 2, 2),  # L31-39 « 30cm 2 (5cm) 2 2 »
    ("fusil_a_pompe", 30, 3, 7.5, 2, 3),  # L41-49 « 30cm 3 (7,5cm) 2 3 »
    ("mitraillette", 60, 3, 7.5, 3, 4),  # L51-59 « 60cm 3 (7,5cm) 3 4 »
    ("corps_a_corps", None, None, None, 2, None),  # L61-71 « - - 2 - ... Arme de corps à corps »
]


@pytest.mark.parametrize(("weapon_id", "range_cm", "rate", "spread", "impact", "class_"), WEAPONS)
def test_weapon_table(
    catalogue: Catalogue,
    weapon_id: str,
    range_cm: int | None,
    rate: int | None,
    spread: float | None,
    impact: int,
    class_: int | None,
) -> None:
    weapon = catalogue.weapon(weapon_id)
    assert (weapon.range_cm, weapon.rate, weapon.spread_cm, weapon.impact, weapon.class_) == (
        range_cm,
        rate,
        spread,
        impact,
        class_,
    )


def printed_row(lines: list[str], source: str) -> tuple[Any, ...]:
    """The five cells of a row as printed: name, then one cell every second line."""
    first, last = (int(n) for n in re.findall(r"\d+", source))
    cells = [lines[n - 1].strip() for n in range(first, last + 1, 2)]
    if cells[-1].startswith("Arme de"):  # the melee row: cells first, label last (L61-71)
        cells = [cells[-1], *cells[:4]]

    def number(cell: str) -> float | None:
        return None if cell == "-" else float(cell.removesuffix("cm").replace(",", "."))

    name, reach, rate, impact, class_ = cells
    spread = re.search(r"\((.*)\)", rate)
    return (
        name,
        number(reach),
        number(rate.split(" ")[0]),
        number(spread.group(1)) if spread else None,
        number(impact),
        number(class_),
    )


@pytest.mark.skipif(not RULES.exists(), reason="the rule text is not beside the project")
@pytest.mark.parametrize("copy", ["source", "reference_source"])
def test_weapon_table_as_printed(catalogue: Catalogue, copy: str) -> None:
    # The table (L13-71) and the Feuille de Référence's copy (L296-354) agree, cell for cell.
    lines = RULES.read_text(encoding="utf-8").splitlines()
    for weapon in catalogue.weapons:
        assert printed_row(lines, getattr(weapon, copy)) == (
            weapon.name,
            weapon.range_cm,
            weapon.rate,
            weapon.spread_cm,
            weapon.impact,
            weapon.class_,
        )


def test_weapon_shape_is_the_contract(catalogue: Catalogue) -> None:
    # api-v1.md: {"id", "name", "range_cm", "rate", "spread_cm", "impact", "class"}
    sheet = cost_figure(catalogue, BastosFigure(rep=4, weapon="revolver")).derived
    assert sheet.weapon is not None
    assert sheet.weapon.model_dump() == {
        "id": "revolver",
        "name": "Revolver",
        "range_cm": 30,
        "rate": 1,
        "spread_cm": None,
        "impact": 2,
        "class": 1,
    }


def test_rep_meanings(catalogue: Catalogue) -> None:
    # L11 « Avec une Rep de 5, une figurine est vétéran [...] Avec 4, on a des hommes fiables
    # [...] A 3, les figurines sont des débutants non testés »
    assert [(level.rep, level.name) for level in catalogue.reps] == [
        (3, "Bleu"),
        (4, "Fiable"),
        (5, "Vétéran"),
    ]


# ------------------------------------------------------------------ catalogue checks


def test_catalogue_reports_every_problem() -> None:
    data = catalogue_data()
    data["weapons"] = [w for w in data["weapons"] if w["id"] != "revolver"]
    data["weapons"].append(dict(data["weapons"][0]))
    data["weapons"][0]["rate"] = 1  # a spread needs a rate of 2 or more (L73)
    data["figures"][0]["weapon"] = "arbalete"
    data["figures"].append(dict(data["figures"][1]))
    data["examples"][0]["entries"].append({"unit": "inconnu", "count": 1})
    problems = load_catalogue(data)
    assert problems == [
        "weapons[4].id: duplicate id 'pistolet_45'",
        "figures[6].id: duplicate id 'bob_437_a'",
        "weapons: missing weapon 'revolver' (fixed by api-v1.md)",
        "weapons[0].spread_cm: a spread needs a rate of 2 or more",
        "figures[0].weapon: unknown weapon 'arbalete'",
        "examples[0].entries[2].unit: unknown figure 'inconnu'",
    ]


def test_catalogue_refuses_bad_fields() -> None:
    data = catalogue_data()
    data["weapons"][0]["impact"] = 7
    data["reps"][0]["colour"] = "vert"
    problems = load_catalogue(data)
    assert isinstance(problems, list)
    assert [p.split(":")[0] for p in problems] == ["weapons.0.impact", "reps.0.colour"]


# ------------------------------------------------------------------ the figure sheet


def test_contract_cost_example(catalogue: Catalogue) -> None:
    # api-v1.md's cost example: rep_test {"2": "25/36", "1": "5/18", "0": "1/36"} and
    # activation "5/6". L80 (success when the die is at most the Rep) gives these for Rep 5
    # on two dice, 25/36 = (5/6)², and L73 5/6 for Rep 5: the example is a Rep 5 figure.
    costed = cost_figure(
        catalogue, BastosFigure(rep=5, leader=False, star=False, weapon="mitraillette")
    )
    assert (costed.points, costed.breakdown, costed.issues) == (0, [], [])
    derived = costed.model_dump()["derived"]
    assert derived["rep_test"] == {"2": "25/36", "1": "5/18", "0": "1/36"}
    assert derived["activation"] == "5/6"
    assert derived["weapon"]["id"] == "mitraillette"


def test_rep_4_figure(catalogue: Catalogue) -> None:
    # The contract's example figure has Rep 4: L80 gives it 4/9, 4/9, 1/9 (not 25/36 ...),
    # and L73 an activation chance of 4/6 = 2/3.
    derived = cost_figure(catalogue, BastosFigure(rep=4, weapon="mitraillette")).derived
    assert derived.rep_test == {"2": "4/9", "1": "4/9", "0": "1/9"}
    assert derived.activation == "2/3"
    assert derived.rep_label == "Fiable"


def test_leader_rep_test_uses_the_leader_die(catalogue: Catalogue) -> None:
    # L80 « une figurine lance 3 dés au lieu de 2. Cependant, on ne peut obtenir que 2
    # réussites au maximum. Les leaders utilisent un dé de leader pour tous leurs tests
    # personnels. » Rep 4: P(0) = (2/6)³ = 1/27, P(1) = 3·(4/6)·(2/6)² = 2/9.
    leader = cost_figure(catalogue, BastosFigure(rep=4, leader=True, weapon="pistolet_45")).derived
    assert leader.rep_test == leader.rep_test_leader_die == {"2": "20/27", "1": "2/9", "0": "1/27"}
    assert leader.rep_test_two_dice == {"2": "4/9", "1": "4/9", "0": "1/9"}
    # L173-183 with the leader die: 20/27 + 2/9 · 20/27 = 220/243.
    assert leader.stunned_recovery["back_in_the_fight"] == "220/243"


def test_sheet_of_a_mitraillette(catalogue: Catalogue) -> None:
    sheet = cost_figure(catalogue, BastosFigure(rep=4, weapon="mitraillette")).derived
    # L115-129 per die at Rep 4: 10+ hits (5, 6), 9 hits the open 1st and 2nd target (5),
    # 8 only the open, still, first target (4).
    assert sheet.shooting == {
        "open": "1/2",
        "open_second_target": "1/3",
        "open_third_target": "1/6",
        "prone": "1/3",
        "fast_move": "1/3",
        "cover": "1/6",
    }
    # At Rep 3 (L103 « à Rep -1 »): a 6 in cover makes 9, « Tir désespéré » (L138): 1/6 · 3/6.
    assert sheet.shooting_rep_minus_1 is not None
    assert sheet.shooting_rep_minus_1["cover"] == "1/12"
    # L140-150 Impact 3 (L57): 1 dead, 2-3 out of action, 4-6 stunned.
    assert sheet.wound == {"dead": "1/6", "out_of_action": "1/3", "stunned": "1/2"}
    # L152 two natural 1s or more on the 3 dice of its rate (L55): 16/216.
    assert sheet.jam_at_full_rate == "2/27"
    # L209-218 Rep 4 against Rep 4: both tests alike, ties 16/81 + 16/81 + 1/81 = 11/27.
    assert sheet.melee["4"]["tie"] == "11/27"
    assert sheet.melee["4"]["win_by_1"] == sheet.melee["4"]["lose_by_1"] == "20/81"
    # L173-183: 4/9 + 4/9 · 4/9 = 52/81.
    assert sheet.stunned_recovery == {"back_in_the_fight": "52/81", "out_of_action": "29/81"}
    # L238-248 on two dice (L240 « Revient avec sa Rep normale », L244 « Revient avec Rep -1 »).
    assert sheet.end_of_game_recovery == {
        "full_rep": "4/9",
        "rep_minus_1": "4/9",
        "dies_of_wounds": "1/9",
    }


def test_sheet_of_an_unarmed_star(catalogue: Catalogue) -> None:
    # L166 « désarmée »: no weapon, nothing to shoot; L238 « Les stars choisissent leur
    # réaction »: a star comes back with its full Rep.
    sheet = cost_figure(catalogue, BastosFigure(rep=3, star=True, weapon=None)).derived
    assert (sheet.weapon, sheet.shooting, sheet.wound, sheet.jam_at_full_rate) == (
        None,
        None,
        None,
        None,
    )
    assert sheet.end_of_game_recovery == {"full_rep": "1"}


def test_melee_weapon_cannot_shoot(catalogue: Catalogue) -> None:
    # L61-65: the Arme de corps à corps has no Portée nor Taux, only Impact 2.
    sheet = cost_figure(catalogue, BastosFigure(rep=4, weapon="corps_a_corps")).derived
    assert (sheet.shooting, sheet.jam_at_full_rate) == (None, None)
    assert sheet.wound == {"dead": "1/6", "out_of_action": "1/6", "stunned": "2/3"}


def test_revolver_never_jams(catalogue: Catalogue) -> None:
    # L152 « deux 1 naturels » cannot come up on the one die of a revolver (L25).
    assert (
        cost_figure(catalogue, BastosFigure(rep=4, weapon="revolver")).derived.jam_at_full_rate
        == "0"
    )


# ------------------------------------------------------------------ figure issues


@pytest.mark.parametrize("rep", [1, 2, 3, 4, 5])
def test_usual_reps(catalogue: Catalogue, rep: int) -> None:
    # L11 describes 3 to 5; 1 and 2 come from « Revient avec Rep -1 » (L244).
    assert cost_figure(catalogue, BastosFigure(rep=rep, weapon="revolver")).issues == []


def test_rep_6_is_unusual(catalogue: Catalogue) -> None:
    # L255 « ne peuvent activer que des figurines de Rep 6 ou plus, autrement dit personne »
    costed = cost_figure(catalogue, BastosFigure(rep=6, weapon="revolver"))
    assert codes(costed.issues) == [("warning", "unusual_rep", "rep")]
    assert costed.valid
    assert costed.derived.rep_test == {"2": "1", "1": "0", "0": "0"}


@pytest.mark.parametrize("rep", [-100, -1, 0, 7, 100])
def test_rep_outside_1_to_6_is_kept_and_flagged(catalogue: Catalogue, rep: int) -> None:
    costed = cost_figure(catalogue, BastosFigure.model_validate(figure(rep)))
    assert codes(costed.issues) == [("error", "invalid_rep", "rep")]
    assert not costed.valid
    assert costed.points == 0


@pytest.mark.parametrize(
    ("body", "error_type"),
    [
        (figure(101), "less_than_equal"),
        (figure(-101), "greater_than_equal"),
        ({**figure(4), "rep": "4"}, "int_type"),
        ({**figure(4), "rep": 4.5}, "int_type"),
        ({**figure(4), "rep": True}, "int_type"),
        (figure(4, "arbalete"), "unknown_id"),
        ({"rep": 4}, "missing"),
        ({**figure(4), "points": 3}, "extra_forbidden"),
    ],
)
def test_figure_model_refuses(body: dict[str, Any], error_type: str) -> None:
    with pytest.raises(ValidationError) as caught:
        BastosFigure.model_validate(body)
    assert [e["type"] for e in caught.value.errors()] == [error_type]


def test_figure_model_reads_json_numbers() -> None:
    assert BastosFigure.model_validate({**figure(4), "rep": 4.0}).rep == 4
    assert BastosFigure.model_validate({"rep": 4, "weapon": None}) == BastosFigure(
        rep=4, weapon=None
    )


# ------------------------------------------------------------------ bands


def test_contract_validate_example(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    # api-v1.md: {"figures": 7, "rep_total": 27, "rep_distribution": {"3": 2, "4": 4, "5": 1},
    # "leaders": 1, "stars": 0}: the section of L282 « un leader Rep 5, quatre vétérans Rep 4
    # et de deux bleus Rep 3 ».
    result = validate(
        catalogue,
        roster_model,
        name="Section",
        entries=[
            {"custom": figure(5, "pistolet_45", leader=True), "name": "Chef", "count": 1},
            {"custom": figure(4), "name": "Vétéran", "count": 4},
            {"custom": figure(3, "fusil_a_pompe"), "name": "Bleu", "count": 2},
        ],
    )
    dumped = result.model_dump()
    assert (dumped["points"], dumped["points_limit"], dumped["issues"]) == (0, None, [])
    derived = dumped["derived"]
    assert {key: derived[key] for key in ("figures", "rep_total", "leaders", "stars")} == {
        "figures": 7,
        "rep_total": 27,
        "leaders": 1,
        "stars": 0,
    }
    assert list(derived["rep_distribution"].items()) == [("3", 2), ("4", 4), ("5", 1)]
    assert derived["weapons"] == {"pistolet_45": 1, "fusil_a_pompe": 2, "mitraillette": 4}
    assert derived["weapon_classes"] == {"4": 4, "3": 2, "2": 1}
    assert derived["best_class"] == 4
    assert derived["shooting_dice"] == 1 * 2 + 4 * 3 + 2 * 3  # Taux, L35, L55, L45
    assert derived["rep_average"] == 3.86
    assert [(e["name"], e["count"], e["points"]) for e in dumped["entries"]] == [
        ("Chef", 1, 0),
        ("Vétéran", 4, 0),
        ("Bleu", 2, 0),
    ]
    # The leader rolls the leader die (L80): P(0) = (1/6)³, P(1) = 3 · 5/6 · (1/6)².
    assert dumped["entries"][0]["derived"]["rep_test"] == {"2": "25/27", "1": "5/72", "0": "1/216"}


def test_entry_issues_stay_in_their_entry(
    catalogue: Catalogue, roster_model: type[BaseModel]
) -> None:
    result = validate(
        catalogue,
        roster_model,
        entries=[
            {"custom": figure(4, leader=True), "count": 1},
            {"custom": figure(9), "count": 2},
            {"custom": figure(6), "count": 1},
        ],
    )
    assert result.issues == []
    assert [codes(entry.issues) for entry in result.entries] == [
        [],
        [("error", "invalid_rep", "entries[1].custom.rep")],
        [("warning", "unusual_rep", "entries[2].custom.rep")],
    ]
    # The invalid figure is still counted: the band is stored as the player wrote it.
    assert result.derived.rep_total == 4 + 2 * 9 + 6
    assert result.entries[1].name == "Figurine de Rep 9"


def test_list_level_issues(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    # L255 « deux rebelles anonymes »: no leader is a warning. L11 « La star représente le
    # joueur »: a starred entry of 2 figures makes 2 stars. No points in the text.
    result = validate(
        catalogue,
        roster_model,
        points_limit=200,
        entries=[{"custom": figure(4, star=True), "count": 2}],
    )
    assert codes(result.issues) == [
        ("warning", "no_leader", "entries"),
        ("warning", "several_stars", "entries"),
        ("warning", "points_not_used", "points_limit"),
    ]
    assert (result.points, result.points_limit, result.derived.stars) == (0, 200, 2)


def test_empty_band(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    result = validate(catalogue, roster_model)
    assert codes(result.issues) == [("warning", "empty_roster", "")]  # the shared check
    assert result.derived.figures == 0
    assert result.derived.rep_average is None


def test_entry_naming_a_figure_of_the_text(
    catalogue: Catalogue, roster_model: type[BaseModel]
) -> None:
    # L255 « Le sergent Rooko (leader, Rep 4) et le 2ème classe Bob 437-A (Rep 3, gros
    # flingue) »; L266 « sa mittraillette laser à une Thomson ».
    result = validate(
        catalogue,
        roster_model,
        entries=[{"unit": "sergent_rooko"}, {"unit": "bob_437_a", "name": "Bob"}],
    )
    assert [(e.name, e.derived.rep) for e in result.entries] == [("Sergent Rooko", 4), ("Bob", 3)]
    assert result.derived.leaders == 1
    assert result.derived.weapons == {"pistolet_45": 1, "mitraillette": 1}


@pytest.mark.parametrize(
    "document",
    [
        {"entries": [{"unit": "dark_vador"}]},
        {"entries": [{"unit": "bob_437_a", "custom": figure(3)}]},
        {"entries": [{}]},
        {"entries": [{"custom": figure(3), "count": 0}]},
        {"points_limit": 0},
        {"extras": {"optional_rules": ["zombies", "zombies"]}},
        {"extras": {"optional_rules": ["grenades"]}},
        {"extras": {"hidden_moves": []}},
        {"name": "a\x00b"},
    ],
)
def test_roster_model_refuses(roster_model: type[BaseModel], document: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        roster_model.model_validate({"system": "bastos", **document})


def test_extras(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    # L3 « On se fixe un petit objectif »; the optional rules of L282 and L289.
    roster = roster_model.model_validate(
        {
            "system": "bastos",
            "extras": {"objective": "Tenir les sacs", "optional_rules": ["zombies"]},
        }
    )
    assert roster.extras.optional_rules == ["zombies"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("example_id", "figures", "issue_codes"),
    [
        ("imperiaux", 2, []),  # L255: Rooko (leader, Rep 4) and Bob 437-A (Rep 3)
        ("rebelles", 2, ["no_leader"]),  # L255 « deux rebelles anonymes (Rep 4) »
        ("section", 7, []),  # L282
    ],
)
def test_example_bands(
    catalogue: Catalogue,
    roster_model: type[BaseModel],
    example_id: str,
    figures: int,
    issue_codes: list[str],
) -> None:
    example = next(e for e in catalogue.examples if e.id == example_id)
    assert (example.expected_issue_codes, example.expected_warnings) == ([], issue_codes)
    roster: Any = roster_model.model_validate(example_document(catalogue, example))
    result = validate_roster(catalogue, roster)
    assert result.derived.figures == figures
    assert [issue.code for issue in result.issues] == issue_codes
    assert all(entry.issues == [] for entry in result.entries)


def test_a_figure_s_sheet_is_made_once_per_catalogue(catalogue: Catalogue) -> None:
    """Sheets are kept per catalogue (issue 19): the same figure gets the same sheet, equal
    to one made anew; another catalogue, whose weapon differs, gets its own."""
    from app.systems.bastos.engine import _figure_sheet, figure_derived

    veteran = BastosFigure(rep=5, leader=True, star=False, weapon="mitraillette")
    first = figure_derived(catalogue, veteran)
    assert figure_derived(catalogue, veteran.model_copy()) is first
    assert first == _figure_sheet(catalogue, veteran)
    data = catalogue_data()
    for weapon in data["weapons"]:
        if weapon["id"] == "mitraillette":
            weapon["impact"] = weapon["impact"] + 1
    other = load_catalogue(data)
    assert not isinstance(other, list), other
    theirs = figure_derived(other, veteran)
    assert theirs is not first and theirs.wound != first.wound
    assert theirs == _figure_sheet(other, veteran)

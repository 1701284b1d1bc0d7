"""Necromunda–Warzone figures and gangs, engine only: actions (L7-11, L78), to hit (L38-39),
encumbrance (L70), command radius (L31), one chef (L13, L31, L84), rout threshold (L84).

Lnn = line of shared/rules/necromunda-warzone.fr.txt.
"""

import tomllib
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from app.systems.necrowarzone import (
    Catalogue,
    NecrowarzoneFigure,
    NecrowarzoneResult,
    NecrowarzoneSystem,
    build,
    cost_figure,
    validate_roster,
)

CATALOGUE = Path(__file__).parents[2] / "data" / "systems" / "necrowarzone" / "catalogue.toml"
PROFILE = {"M": 4, "CC": 3, "CT": 3, "F": 3, "E": 3, "PV": 1, "I": 3, "A": 1, "Cd": 7}


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    system = build(tomllib.loads(CATALOGUE.read_text(encoding="utf-8")))
    assert isinstance(system, NecrowarzoneSystem), system
    return system.data


@pytest.fixture(scope="module")
def roster_model(catalogue: Catalogue) -> type[BaseModel]:
    return NecrowarzoneSystem(catalogue).roster_model


def figure(**fields: Any) -> NecrowarzoneFigure:
    profile = {**PROFILE, **fields.pop("profile", {})}
    return NecrowarzoneFigure.model_validate({"profile": profile, **fields})


def custom(count: int = 1, **fields: Any) -> dict[str, Any]:
    return {"custom": figure(**fields).model_dump(), "count": count}


def validate(
    catalogue: Catalogue, roster_model: type[BaseModel], *entries: dict[str, Any], **document: Any
) -> NecrowarzoneResult:
    roster = roster_model.model_validate(
        {"system": "necrowarzone", "entries": list(entries), **document}
    )
    return validate_roster(catalogue, roster)  # type: ignore[arg-type]


# ---------------------------------------------------------------- one figure


def test_the_api_example_figure(catalogue: Catalogue) -> None:
    # api-v1.md's figure: a chef with 63 XP, CT 4, Cd 8.
    chef = NecrowarzoneFigure.model_validate(
        {
            "leader": True,
            "xp": 63,
            "light_wounds": 0,
            "profile": {"M": 4, "CC": 4, "CT": 4, "F": 3, "E": 3, "PV": 1, "I": 4, "A": 1, "Cd": 8},
            "weapons": [{"name": "Pistolet laser", "heavy": False, "hit_modifier": 0}],
            "heavy_equipment": False,
        }
    )
    costed = cost_figure(catalogue, chef)
    assert costed.points == 0
    assert costed.breakdown == []
    assert costed.issues == []
    assert costed.valid
    derived = costed.derived.model_dump()
    assert {k: derived[k] for k in ("actions", "to_hit", "encumbered", "command_radius")} == {
        "actions": 3,  # L9 « 0-100-----------------2 (3 pour un chef de gang) »
        "to_hit": 3,  # L38-39 CT 4 → « Résultat » 3
        "encumbered": False,
        # L31 « dans un rayon (en pas) inférieur ou égal à sa valeur de commandement »
        "command_radius": 8,
    }


@pytest.mark.parametrize(
    ("xp", "leader", "actions"),
    [
        (0, False, 2),  # L9 « 0-100-----------------2 (3 pour un chef de gang) »
        (100, False, 2),  # L9
        (101, False, 3),  # L10 « 101-400--------------3 (4 pour un chef de gang) »
        (400, False, 3),  # L10
        (401, False, 4),  # L11 « 401+------------------4 (5 pour un chef de gang) »
        (1_000_000, False, 4),  # L11 « 401+ »: no upper bound
        (0, True, 3),  # L9 « (3 pour un chef de gang) »
        (100, True, 3),  # L9
        (101, True, 4),  # L10 « (4 pour un chef de gang) »
        (400, True, 4),  # L10
        (401, True, 5),  # L11 « (5 pour un chef de gang) »
    ],
)
def test_actions_by_xp(catalogue: Catalogue, xp: int, leader: bool, actions: int) -> None:
    derived = cost_figure(catalogue, figure(xp=xp, leader=leader)).derived
    assert derived.actions == derived.base_actions == actions


@pytest.mark.parametrize(
    ("xp", "leader", "light_wounds", "actions"),
    [
        # L78 « 1 Blessure légère -1CC/-1CT/-1 Action (minimum 1) »
        (200, False, 0, 3),
        (200, False, 1, 2),
        (200, False, 2, 1),
        (200, False, 3, 1),  # « (minimum 1) »
        (50, False, 5, 1),
        (401, True, 1, 4),  # L11 the chef's 5, less one
        (401, True, 4, 1),
        (401, True, 20, 1),
    ],
)
def test_light_wounds_take_actions_down_to_one(
    catalogue: Catalogue, xp: int, leader: bool, light_wounds: int, actions: int
) -> None:
    derived = cost_figure(
        catalogue, figure(xp=xp, leader=leader, light_wounds=light_wounds)
    ).derived
    assert derived.actions == actions
    assert derived.base_actions == actions + min(light_wounds, derived.base_actions - 1)


@pytest.mark.parametrize(
    ("ct", "light_wounds", "cc", "effective_ct", "effective_cc", "to_hit"),
    [
        # L78 « -1CC/-1CT »; the score comes from the CT so reduced (L38-39)
        (4, 1, 4, 3, 3, 4),
        (4, 2, 2, 2, 1, 5),
        (2, 3, 1, 1, 1, 6),  # neither goes below 1 (note: « minimum 1 » read for all three)
        (10, 0, 5, 10, 5, -3),
    ],
)
def test_light_wounds_lower_cc_and_ct(
    catalogue: Catalogue,
    ct: int,
    light_wounds: int,
    cc: int,
    effective_ct: int,
    effective_cc: int,
    to_hit: int,
) -> None:
    derived = cost_figure(
        catalogue, figure(light_wounds=light_wounds, profile={"CT": ct, "CC": cc})
    ).derived
    assert (derived.effective_ct, derived.effective_cc, derived.to_hit) == (
        effective_ct,
        effective_cc,
        to_hit,
    )


# L38 « CT----------------------1 2 3 4 5 6 7 8 9 10 »
# L39 « Résultat---------------6 5 4 3 2 1 0 -1 -2 -3 »
@pytest.mark.parametrize(
    ("ct", "to_hit"),
    [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 1), (7, 0), (8, -1), (9, -2), (10, -3)],
)
def test_to_hit_table(catalogue: Catalogue, ct: int, to_hit: int) -> None:
    costed = cost_figure(catalogue, figure(profile={"CT": ct}))
    assert costed.derived.to_hit == to_hit == 7 - ct
    assert costed.issues == []


@pytest.mark.parametrize("ct", [-20, -1, 0, 11, 20])
def test_ct_off_the_table_is_kept_and_reported(catalogue: Catalogue, ct: int) -> None:
    # L38 covers CT 1 to 10 only: the figure is accepted, with an error and no score.
    costed = cost_figure(catalogue, figure(profile={"CT": ct}, light_wounds=1))
    assert costed.derived.to_hit is None
    assert [(i.severity, i.code, i.path) for i in costed.issues] == [
        ("error", "ct_off_table", "profile.CT")
    ]
    assert not costed.valid


@pytest.mark.parametrize("xp", [-1, -1_000_000])
def test_negative_xp_is_kept_and_reported(catalogue: Catalogue, xp: int) -> None:
    # L9: the table starts at 0 XP. Negative XP is an error, read as the first band.
    costed = cost_figure(catalogue, figure(xp=xp))
    assert [(i.severity, i.code, i.path) for i in costed.issues] == [("error", "invalid_xp", "xp")]
    assert costed.derived.actions == 2


@pytest.mark.parametrize(
    ("fields", "encumbered"),
    [
        ({}, False),
        ({"weapons": [{"name": "Fusil laser"}]}, False),
        # L70 « Encombré (si le personnage est équipé d’un arme ou d’un équipement lourds) -1 »
        ({"weapons": [{"name": "Fusil laser"}, {"name": "Bolter lourd", "heavy": True}]}, True),
        ({"heavy_equipment": True}, True),
        ({"heavy_equipment": True, "weapons": [{"name": "Canon", "heavy": True}]}, True),
    ],
)
def test_encumbered(catalogue: Catalogue, fields: dict[str, Any], encumbered: bool) -> None:
    assert cost_figure(catalogue, figure(**fields)).derived.encumbered is encumbered


@pytest.mark.parametrize(
    ("leader", "cd", "light_wounds", "radius"),
    [
        # L31 « situé dans un rayon (en pas) inférieur ou égal à sa valeur de commandement »
        (True, 8, 0, 8),
        (True, 9, 2, 9),  # L78 takes CC, CT and actions, not Cd
        (False, 8, 0, None),  # only the chef gives orders (L31) and lends his Cd (L32, L54)
    ],
)
def test_command_radius(
    catalogue: Catalogue, leader: bool, cd: int, light_wounds: int, radius: int | None
) -> None:
    derived = cost_figure(
        catalogue, figure(leader=leader, light_wounds=light_wounds, profile={"Cd": cd})
    ).derived
    assert derived.command_radius == radius


@pytest.mark.parametrize(
    ("fields", "accepted"),
    [
        ({"xp": -1_000_000}, True),
        ({"xp": 1_000_000}, True),
        ({"xp": 1_000_001}, False),
        ({"xp": 2.5}, False),
        ({"xp": "63"}, False),
        ({"xp": 63.0}, True),
        ({"profile": {"CT": -20}}, True),
        ({"profile": {"CT": 20}}, True),
        ({"profile": {"CT": 21}}, False),
        ({"profile": {"Cd": -1}}, False),
        ({"weapons": [{"name": "Arme", "hit_modifier": 2}]}, False),  # L49 « +/-1 »
        ({"light_wounds": -1}, False),
        ({"psyker": True}, False),
    ],
)
def test_figure_model_bounds(fields: dict[str, Any], accepted: bool) -> None:
    if accepted:
        figure(**fields)
    else:
        with pytest.raises(ValidationError):
            figure(**fields)


# ---------------------------------------------------------------- a gang


def codes(result: NecrowarzoneResult) -> list[str]:
    return [issue.code for issue in result.issues]


def test_totals_include_counts(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    result = validate(
        catalogue,
        roster_model,
        custom(leader=True, xp=63),  # L9: 3 actions for a chef
        custom(count=3, xp=23),  # L9: 2 each
        custom(count=2, xp=150, light_wounds=1),  # L10: 3 each, L78: less 1
        {"unit": "novice", "count": 2},  # 0 XP, 2 actions each
    )
    assert result.valid
    assert result.points == 0
    assert result.issues == []
    assert result.derived.model_dump() == {
        "figures": 8,
        "actions_total": 3 + 3 * 2 + 2 * 2 + 2 * 2,
        "xp_total": 63 + 3 * 23 + 2 * 150,
        "initiative_xp": 63,  # L13: the chef's experience
        "rout_threshold": 2,  # L84: 25 % of 8
        "leaders": 1,
    }
    assert [(e.name, e.count, e.points, e.breakdown) for e in result.entries] == [
        ("Chef de gang", 1, 0, []),
        ("Ganger", 3, 0, []),
        ("Ganger", 2, 0, []),
        ("Novice", 2, 0, []),
    ]


@pytest.mark.parametrize(
    ("figures", "threshold"),
    # L84 « S’il reste encore 25% ou plus d’un gang au tapis ou hors de combat »
    [(1, 1), (4, 1), (5, 2), (8, 2), (9, 3), (12, 3), (13, 4)],
)
def test_rout_threshold(
    catalogue: Catalogue, roster_model: type[BaseModel], figures: int, threshold: int
) -> None:
    gangers = [custom(count=figures - 1)] if figures > 1 else []
    result = validate(catalogue, roster_model, custom(leader=True), *gangers)
    assert result.derived.figures == figures
    assert result.derived.rout_threshold == threshold
    assert threshold / figures >= 0.25 > (threshold - 1) / figures


def test_no_leader(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    # L13, L31, L84: « le chef », always one.
    result = validate(catalogue, roster_model, custom(count=4))
    assert [(i.severity, i.code, i.path) for i in result.issues] == [
        ("error", "no_leader", "entries")
    ]
    assert result.derived.initiative_xp is None
    assert not result.valid


def test_empty_gang_has_no_leader(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    # An empty list is said (a warning, as for every system) and has no chef (an error).
    result = validate(catalogue, roster_model)
    assert [(i.severity, i.code) for i in result.issues] == [
        ("error", "no_leader"),
        ("warning", "empty_roster"),
    ]
    assert result.derived.model_dump() == {
        "figures": 0,
        "actions_total": 0,
        "xp_total": 0,
        "initiative_xp": None,
        "rout_threshold": 0,
        "leaders": 0,
    }


def test_two_leader_entries(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    result = validate(
        catalogue,
        roster_model,
        custom(leader=True, xp=63),
        {"unit": "chef_de_gang"},
        custom(leader=True, xp=120),
    )
    assert [(i.severity, i.code, i.path) for i in result.issues] == [
        ("error", "several_leaders", "entries")
    ]
    assert result.derived.leaders == 3
    assert result.derived.initiative_xp == 120  # the most experienced chef is shown
    assert not result.valid


def test_a_leader_entry_counted_twice(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    result = validate(catalogue, roster_model, {"unit": "chef_de_gang", "count": 2}, custom())
    assert codes(result) == ["several_leaders"]
    assert result.derived.leaders == 2


def test_points_limit_is_not_used(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    # api-v1.md "Systems without points": a number there gives the warning points_not_used.
    result = validate(catalogue, roster_model, custom(leader=True), points_limit=1000)
    assert [(i.severity, i.code, i.path) for i in result.issues] == [
        ("warning", "points_not_used", "points_limit")
    ]
    assert result.valid
    assert result.points == 0
    assert result.points_limit == 1000


def test_entry_issues_stay_in_their_entry(
    catalogue: Catalogue, roster_model: type[BaseModel]
) -> None:
    result = validate(
        catalogue,
        roster_model,
        {"unit": "chef_de_gang"},
        custom(xp=-5, profile={"CT": 11}),
        custom(profile={"CT": 0}),
    )
    assert result.issues == []  # the gang's own issues only
    assert [(i.code, i.path) for i in result.entries[1].issues] == [
        ("invalid_xp", "entries[1].custom.xp"),
        ("ct_off_table", "entries[1].custom.profile.CT"),
    ]
    assert [(i.code, i.path) for i in result.entries[2].issues] == [
        ("ct_off_table", "entries[2].custom.profile.CT")
    ]
    assert result.entries[0].issues == []
    assert not result.valid
    assert result.derived.xp_total == 63 - 5 + 0


def test_every_issue_code_at_once(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    result = validate(
        catalogue,
        roster_model,
        custom(xp=-1, profile={"CT": 12}),
        points_limit=200,
    )
    entry_codes = [issue.code for issue in result.entries[0].issues]
    assert sorted(codes(result) + entry_codes) == [
        "ct_off_table",
        "invalid_xp",
        "no_leader",
        "points_not_used",
    ]


def test_entry_names(catalogue: Catalogue, roster_model: type[BaseModel]) -> None:
    result = validate(
        catalogue,
        roster_model,
        {"unit": "chef_de_gang", "name": "Vorn"},
        {"unit": "ganger_arme_lourde"},
        custom(leader=False),
    )
    assert [entry.name for entry in result.entries] == ["Vorn", "Ganger à l’arme lourde", "Ganger"]
    assert result.entries[1].derived.encumbered  # L70: its bolter lourd is heavy

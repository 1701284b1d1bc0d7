"""DCSystem rosters: the three battle sheets (L17-59), Renfort (L359-360), hidden moves (L357)."""

from typing import Any

import pytest

from app.systems.dcsystem import DcSystem


def validate(system: DcSystem, **document: Any) -> Any:
    return system.validate(system.roster_model.model_validate({"system": "dcsystem", **document}))


@pytest.mark.parametrize(
    ("example_id", "total", "codes"),
    [
        # L19-21 "1 reine 35 points / 8 Réplicateurs + 2 réplicateurs(coups caché:renfort)
        # 144 points + 20 points / total 199 points"
        ("feuille_de_bataille_replicateurs", 199, []),
        # L33-37 "1 Leader 50 / 3 membres 90 / 1 médecin 48 / raide aérien 15 / total 203"
        ("feuille_de_bataille_sg", 203, ["over_points_limit"]),
        # L51-53 "6 jaffas 180points / traitre 20 points / total 200points"
        ("feuille_de_bataille_jaffa", 200, []),
    ],
)
def test_battle_sheets(dcsystem: DcSystem, example_id: str, total: int, codes: list[str]) -> None:
    example = next(e for e in dcsystem.example_rosters() if e.id == example_id)
    result = dcsystem.validate(dcsystem.roster_model.model_validate(example.document))
    assert result.points == total == example.printed_total
    assert [issue.code for issue in result.issues] == codes


def test_reinforcements_are_listed_not_counted(dcsystem: DcSystem) -> None:
    example = next(
        e for e in dcsystem.example_rosters() if e.id == "feuille_de_bataille_replicateurs"
    )
    result = dcsystem.validate(dcsystem.roster_model.model_validate(example.document))
    renfort = result.entries[2]
    assert (renfort.count, renfort.unit_points, renfort.points, renfort.counted) == (
        2,
        18,
        0,
        False,
    )
    assert result.derived.reinforcement_points == 36
    assert result.derived.reinforcement_limit == 40


def test_sg_sheet_is_three_points_over_its_format(dcsystem: DcSystem) -> None:
    example = next(e for e in dcsystem.example_rosters() if e.id == "feuille_de_bataille_sg")
    result = dcsystem.validate(dcsystem.roster_model.model_validate(example.document))
    [issue] = result.issues
    assert (issue.severity, issue.path) == ("error", "points_limit")
    assert issue.message == "203 points pour un format de 200 (3 de trop)."


def test_reinforcement_group_over_forty_points(dcsystem: DcSystem) -> None:
    # L359 "un groupe de 40*maximum points"
    result = validate(
        dcsystem,
        entries=[{"unit": "jaffa", "count": 2, "group": "renfort"}],
        extras={"hidden_moves": ["renfort"]},
    )
    assert result.points == 20
    [issue] = result.issues
    assert (issue.code, issue.path) == ("reinforcement_over_limit", "extras.hidden_moves[0]")
    assert issue.message == "Le groupe Renfort vaut 60 points pour 40 au plus (20 de trop)."


def test_reinforcements_need_the_hidden_move(dcsystem: DcSystem) -> None:
    result = validate(dcsystem, entries=[{"unit": "replicateur", "count": 1, "group": "renfort"}])
    # An entry's issue is the entry's own, not repeated among the list's (issue "one shape").
    assert result.issues == []
    assert [(i.code, i.path) for i in result.entries[0].issues] == [
        ("reinforcement_without_hidden_move", "entries[0].group")
    ]
    assert not result.valid


def test_more_than_one_hidden_move_warns_unless_agreed(dcsystem: DcSystem) -> None:
    # L357 "A moins que les joueurs se mettent d'accord, il ne peut y avoir qu'un coup caché"
    moves = ["raid_aerien", "teleportation", "traitre"]
    result = validate(dcsystem, entries=[{"unit": "jaffa"}], extras={"hidden_moves": moves})
    assert result.points == 30 + 15 + 5 + 20
    assert [(i.severity, i.code, i.path) for i in result.issues] == [
        ("warning", "hidden_moves_beyond_one", "extras.hidden_moves[1]"),
        ("warning", "hidden_moves_beyond_one", "extras.hidden_moves[2]"),
    ]
    assert result.valid
    agreed = validate(
        dcsystem,
        entries=[{"unit": "jaffa"}],
        extras={"hidden_moves": moves, "hidden_moves_agreed": True},
    )
    assert agreed.issues == []


def test_computed_costing_uses_the_creation_rules(dcsystem: DcSystem) -> None:
    printed = validate(dcsystem, entries=[{"unit": "jaffa", "count": 6}])
    computed = validate(
        dcsystem, entries=[{"unit": "jaffa", "count": 6}], extras={"costing": "computed"}
    )
    assert (printed.points, computed.points) == (180, 168)


def test_custom_entry_issues_carry_their_full_path(dcsystem: DcSystem) -> None:
    result = validate(
        dcsystem,
        points_limit=100,
        entries=[
            {"unit": "jaffa"},
            {
                "custom": {"level": 1, "items": ["arme_tir_1", "rapide"]},
                "name": "Éclaireur",
                "count": 2,
            },
        ],
    )
    assert result.points == 30 + 2 * (8 + 5 + 3)
    assert result.issues == []
    [issue] = result.entries[1].issues
    assert (issue.code, issue.path) == ("too_many_items", "entries[1].custom.items")
    assert result.entries[1].name == "Éclaireur"
    assert not result.valid


def test_empty_roster_warns(dcsystem: DcSystem) -> None:
    result = validate(dcsystem)
    assert (result.points, [i.code for i in result.issues], result.valid) == (
        0,
        ["empty_roster"],
        True,
    )

"""The army book engine (app/systems/books.py) and the change lines (app/systems/changes.py):
every unit is checked by its system's own `cost`; an invalid unit is kept with its issues."""

import json
from typing import Any

import pytest
from pydantic import ValidationError

from app.systems.base import GameSystem
from app.systems.books import BookDocument, definition_model, units_in_extras, validate_book
from app.systems.changes import changes, definition_changes

# DCSystem part F (as tests/api/test_calculator.py): L125-127 the Jaffa, level 2, Arme de
# tir niveau 3, arme de corps à corps niveau 1: 15 + 10 + 3 = 28.
JAFFA = {"level": 2, "items": ["arme_tir_3", "arme_cc_1"]}
# Level 1 (8) and its one slot, Arme de tir niveau 1 (5): 13.
MARINE = {"level": 1, "items": ["arme_tir_1"]}
# Level 1 allows fewer slots than this: 8 + 5 + 8 - 3 - 7 = 11, invalid (over the slots).
OVERLOADED = {"level": 1, "items": ["arme_tir_1", "gilet_de_protection", "lent", "fragile"]}

TROOPER: dict[str, Any] = json.loads(
    """{"id": "fusilier", "name": "Fusilier", "orders": "regular", "impetuous": false, "ava": 4,
 "profile": {"MOV": [10, 5], "CC": 13, "TR": 12, "PH": 10, "VOL": 13, "BL": 1, "B": 1},
 "skills": [],
 "options": [
   {"id": "combi", "name": "Fusil Combi", "points": 10, "swc": 0, "lieutenant": false,
    "equipment": []},
   {"id": "hmg", "name": "HMG", "points": 20, "swc": 1, "lieutenant": false, "equipment": []}]}"""
)


def book(system: str, *units: tuple[str, dict[str, Any]]) -> BookDocument:
    return BookDocument.model_validate(
        {
            "system": system,
            "name": "Marines de Kessel",
            "units": [
                {"id": unit_id, "name": unit_id.capitalize(), "definition": definition}
                for unit_id, definition in units
            ],
        }
    )


def test_each_unit_is_its_systems_own_cost(systems: dict[str, GameSystem]) -> None:
    dcsystem = systems["dcsystem"]
    checked = validate_book(
        dcsystem, book("dcsystem", ("jaffa", JAFFA), ("marine", MARINE), ("lourd", OVERLOADED))
    )
    assert [(u.id, u.points, u.valid) for u in checked.units] == [
        ("jaffa", 28, True),
        ("marine", 13, True),
        ("lourd", 11, False),
    ]
    assert checked.valid is False
    # The invalid unit's issues are placed under its definition in the book.
    assert all(i.path.startswith("units[2].definition") for i in checked.units[2].issues)
    for unit, definition in zip(checked.units, (JAFFA, MARINE, OVERLOADED), strict=True):
        assert unit.points == dcsystem.cost(dcsystem.unit_model.model_validate(definition)).points


def test_a_definition_the_system_refuses_is_kept_and_reported(
    systems: dict[str, GameSystem],
) -> None:
    document = book("dcsystem", ("jaffa", JAFFA), ("faux", {"level": 7, "items": []}))
    checked = validate_book(systems["dcsystem"], document)
    assert len(document.units) == 2
    refused = checked.units[1]
    assert (refused.id, refused.points, refused.valid) == ("faux", 0, False)
    assert [i.code for i in refused.issues] == ["invalid_definition"]
    assert refused.issues[0].path == "units[1].definition.level"
    assert refused.issues[0].message.startswith("Définition refusée (level)")


def test_infinity_units_are_troopers_priced_per_option(systems: dict[str, GameSystem]) -> None:
    infinity = systems["infinity"]
    assert units_in_extras(infinity) and not units_in_extras(systems["nolimits"])
    assert definition_model(infinity).__name__ == "InfinityTrooper"
    checked = validate_book(infinity, book("infinity", ("fusilier", TROOPER)))
    unit = checked.units[0]
    # api-v1.md's trooper: Fusil Combi 10 points SWC 0, HMG 20 points SWC 1.
    assert unit.options is not None
    assert [(o.id, o.points, o.swc) for o in unit.options] == [("combi", 10, 0.0), ("hmg", 20, 1.0)]
    assert (unit.points, unit.valid) == (10, True)
    mismatched = validate_book(infinity, book("infinity", ("autre", TROOPER))).units[0]
    assert [i.code for i in mismatched.issues] == ["definition_id_mismatch"]
    assert mismatched.valid is False


def test_unit_ids_are_unique_snake_case_and_bounded() -> None:
    with pytest.raises(ValidationError, match="appears twice"):
        book("dcsystem", ("jaffa", JAFFA), ("jaffa", MARINE))
    with pytest.raises(ValidationError):
        book("dcsystem", ("Jaffa Prime", JAFFA))
    with pytest.raises(ValidationError):
        book("dcsystem", *((f"u{i}", JAFFA) for i in range(201)))


def test_definition_changes_in_french() -> None:
    assert definition_changes(MARINE, {"level": 2, "items": ["arme_tir_1", "grenade"]}) == [
        "Niveau 1 → 2",
        "Équipement : + grenade",
    ]
    before = {"profile": {"CT": 4, "PV": 1}, "weapons": [{"name": "Lame", "CU": 4}]}
    after = {"profile": {"CT": 5, "PV": 1}, "weapons": [{"name": "Lame", "CU": 5}]}
    assert definition_changes(before, after) == ["CT 4 → 5", "Armes Lame CU 4 → 5"]
    assert definition_changes(MARINE, MARINE) == []


def test_unit_changes_name_and_cost_last() -> None:
    before = {"id": "m", "name": "Marine", "text": "", "definition": MARINE}
    after = {"id": "m", "name": "Marine vétéran", "text": "", "definition": JAFFA}
    assert changes(before, after, 13, 28) == [
        "Nom « Marine » → « Marine vétéran »",
        "Niveau 1 → 2",
        "Équipement : + arme_tir_3",
        "Équipement : + arme_cc_1",
        "Équipement : − arme_tir_1",
        "Coût 13 → 28 pts",
    ]

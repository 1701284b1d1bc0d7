"""What a printed list does not carry is listed to the player (issue 30, « Done when »):
the engine still prints the same lines, and the import says what it could not take back."""

from typing import Any

from app.exports import to_text
from app.imports.checks import checked_text
from app.imports.reading import Imported, read_text
from app.systems.base import AnySystem

ELSEWHERE = "https://ailleurs.example/s/abcd2345"


def exported(systems: dict[str, AnySystem], document: dict[str, Any]) -> Imported:
    system = systems[document["system"]]
    parsed = system.roster_model.model_validate(document)
    summary = system.summarize(parsed, system.validate(parsed))
    return read_text(systems, None, checked_text(to_text(summary, ELSEWHERE)))


def test_a_created_figures_courage_and_xp(systems: dict[str, AnySystem]) -> None:
    document = {
        "system": "toy",
        "name": "Jouets",
        "entries": [{"custom": {"strength": 4, "profile": {"courage": 3}, "xp": 12}, "count": 2}],
    }
    imported = exported(systems, document)
    assert imported.lost == [
        "Figurines créées : leur courage et leur XP ne sont pas imprimés (remis à 0)."
    ]
    entry = imported.document.model_dump(mode="json")["entries"][0]
    assert (entry["custom"]["strength"], entry["count"]) == (4, 2)


def test_an_infinity_trooper_of_the_players_own(systems: dict[str, AnySystem]) -> None:
    trooper = {
        "id": "marine",
        "name": "Marine",
        "orders": "regular",
        "ava": 2,
        "profile": {"MOV": [10, 5], "CC": 13, "TR": 11, "PH": 10, "VOL": 12, "BL": 1, "B": 1},
        "skills": ["docteur"],
        "options": [
            {"id": "fusil", "name": "Fusil", "points": 10, "swc": 0.5, "lieutenant": True},
            {"id": "canon", "name": "Canon", "points": 20, "swc": 1},
        ],
    }
    document = {
        "system": "infinity",
        "name": "Les miens",
        "points_limit": 300,
        "entries": [{"unit": "marine", "option": "fusil", "count": 1, "group": 1}],
        "extras": {"units": [trooper], "ava": True},
    }
    imported = exported(systems, document)
    assert imported.lost == [
        "soldats recréés d'après l'export (Marine) : leur identifiant, leur Disponibilité "
        "(AVA, mise à « Total ») et leurs options absentes de la liste ne sont pas imprimés"
    ]
    rebuilt = imported.document.model_dump(mode="json")["extras"]["units"][0]
    assert (rebuilt["ava"], rebuilt["skills"], [o["id"] for o in rebuilt["options"]]) == (
        None,
        ["docteur"],
        ["fusil"],
    )
    assert rebuilt["options"][0] == {
        "id": "fusil",
        "name": "Fusil",
        "points": 10,
        "swc": 0.5,
        "lieutenant": True,
        "equipment": [],
    }


def test_a_vehicle_and_a_house_rule(systems: dict[str, AnySystem]) -> None:
    unit = {
        "profile": {"AC": 9, "CT": 5, "CC": 5, "FO": 6, "EN": 7, "PV": 6, "CO": 5, "SV": 4},
        "size": "grande",
        "weapons": [
            {"name": "Canon", "CdA": 2, "FO": 7, "DG": 2, "PC": [12, 1], "PL": [36, -1]},
            {
                "name": "Lame",
                "melee": True,
                "CdA": 1,
                "FO": 1,
                "DG": 1,
                "rules": [{"name": "Tranchante", "points": 3, "text": "coupe"}],
            },
        ],
        "abilities": [{"name": "Sang-froid", "points": 4}],
        "vehicle": {"type": "chenilles", "crew": 2, "crew_roles": "Pilote", "passengers": 3},
    }
    document = {
        "system": "nolimits",
        "name": "Blindés",
        "points_limit": 1000,
        "entries": [{"custom": unit, "name": "Char", "count": 1, "category": "soutien"}],
    }
    imported = exported(systems, document)
    lines = [line for line in imported.lines if line.entry == 0]
    assert lines[0].status == "custom"
    assert (
        "véhicule : son type, son équipage et ses passagers ne sont pas imprimés" in lines[0].note
    )
    rebuilt = imported.document.model_dump(mode="json")["entries"][0]["custom"]
    assert rebuilt["vehicle"] == {"type": "roues", "crew": 0, "crew_roles": "", "passengers": 3}
    assert rebuilt["abilities"] == [{"name": "Sang-froid", "points": 4, "text": ""}]
    lame = rebuilt["weapons"][1]
    assert lame["rules"] == [{"name": "Tranchante", "points": 3, "text": ""}]
    assert (
        imported.result.points
        == systems["nolimits"]
        .validate(systems["nolimits"].roster_model.model_validate(document))
        .points
    )

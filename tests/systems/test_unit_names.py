"""Each system's `unit_name` (the name a renamed entry's summary line gives as its profile:
« Sgt Bob », a Chef de groupe SG) is said from its catalogue, without validating a list
(issue 19): it must be the name the same entry gets from a validation, unnamed."""

from typing import Any

import pytest

from app.systems.catalogued import CatalogueSystem
from app.systems.registry import SPECS


@pytest.mark.parametrize("system_id", [spec.id for spec in SPECS])
def test_unit_name_is_the_name_a_validation_gives_the_entry_unnamed(
    systems: dict[str, Any], system_id: str
) -> None:
    system = systems[system_id]
    documents = [example.document for example in system.example_rosters()]
    if system_id == "bastos":  # its examples are the players' own figures: the samples too
        figures = [{"unit": figure.id, "count": 1} for figure in system.data.figures]
        documents.append({**documents[0], "entries": figures})
    checked = 0
    for document in documents:
        roster = system.roster_model.model_validate(document)
        for entry in roster.entries:
            if getattr(entry, "unit", None) is None:
                continue
            renamed = entry.model_copy(update={"name": "Sgt Bob"})
            said = system.unit_name(roster, renamed)
            assert said == CatalogueSystem.unit_name(system, roster, renamed)
            assert said and said != "Sgt Bob"
            checked += 1
    assert checked > 0


def test_an_infinity_unit_of_the_list_s_own_keeps_its_own_name(systems: dict[str, Any]) -> None:
    """A unit of extras.units is named as the list names it, as in its validation."""
    system = systems["infinity"]
    document = system.example_rosters()[0].document
    entry = document["entries"][0]
    own = system.data.unit(entry["unit"]).model_dump(mode="json", exclude={"faction"})
    own |= {"id": "maison", "name": "Troupe maison"}
    document = {
        **document,
        "extras": {**document["extras"], "units": [own]},
        "entries": [{**entry, "unit": "maison", "name": "Sgt Bob"}],
    }
    roster = system.roster_model.model_validate(document)
    renamed = roster.entries[0]
    assert system.unit_name(roster, renamed) == "Troupe maison"
    assert CatalogueSystem.unit_name(system, roster, renamed) == "Troupe maison"

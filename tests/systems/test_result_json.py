"""A validated roster's JSON joined from remembered entry parts (app/systems/result_json.py,
issue 19) is byte for byte the model's own: for every example of every system and the
edited variants of tests/systems/test_engine_memo.py, first written and then remembered;
and a list validated again writes no entry the engines remembered."""

import copy
import gc
import uuid
from typing import Any

import pytest

from app.systems import result_json as module
from app.systems.base import GameSystem, RosterResult
from app.systems.memo import EntryMemo
from app.systems.result_json import result_json
from tests.systems.test_engine_memo import SYSTEMS, variants


def results(system: GameSystem) -> list[Any]:
    out = []
    for example in system.example_rosters():
        for document in variants(system, example.document):
            try:
                roster = system.roster_model.model_validate(copy.deepcopy(document))
            except ValueError:
                continue
            out.append(system.validate(roster))
    return out


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_joined_answer_is_the_models_own(
    systems: dict[str, GameSystem], system_id: str
) -> None:
    system = systems[system_id]
    written = results(system)
    assert len(written) >= 7
    for result in written:
        assert isinstance(result, RosterResult)
        whole = result.model_dump_json().encode()
        assert result_json(result) == whole
        assert result_json(result) == whole  # its entries' parts remembered


class Counting:
    """An entry serializer that keeps what it was given to write."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.written: list[Any] = []

    def to_json(self, entry: Any) -> bytes:
        self.written.append(entry)
        part: bytes = self.inner.to_json(entry)
        return part


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_list_validated_again_writes_no_remembered_entry(
    systems: dict[str, GameSystem], system_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = systems[system_id]
    document = system.example_rosters()[0].document
    first = system.validate(system.roster_model.model_validate(copy.deepcopy(document)))
    result_json(first)
    shape = module._shape(type(first))
    counting = Counting(shape.entry)
    monkeypatch.setattr(shape, "entry", counting)
    # The same list again, renamed: a new roster, the engines' remembered entry results,
    # every one of them written already.
    again = system.validate(
        system.roster_model.model_validate({**copy.deepcopy(document), "name": "Autre nom"})
    )
    assert result_json(again) == again.model_dump_json().encode()
    assert counting.written == []
    # One entry renamed (a name no other test gives): that entry alone is written.
    entries = copy.deepcopy(document["entries"])
    entries[0]["name"] = f"Renommé {uuid.uuid4().hex[:8]}"
    changed = system.validate(system.roster_model.model_validate({**document, "entries": entries}))
    assert result_json(changed) == changed.model_dump_json().encode()
    assert counting.written == [changed.entries[0]]
    assert result_json(changed) == changed.model_dump_json().encode()
    assert counting.written == [changed.entries[0]]


def test_an_entry_result_is_forgotten_with_its_object(systems: dict[str, GameSystem]) -> None:
    system = systems["dcsystem"]
    document = system.example_rosters()[0].document
    result = system.validate(system.roster_model.model_validate(copy.deepcopy(document)))
    alone = result.entries[0].model_copy(update={"name": "Seul"})  # in no engine's memory
    key = id(alone)
    result_json(result.model_copy(update={"entries": [alone]}))
    assert key in module._parts
    del alone
    gc.collect()
    assert key not in module._parts


def test_without_the_engines_memory_the_answer_is_written_whole(
    systems: dict[str, GameSystem], monkeypatch: pytest.MonkeyPatch
) -> None:
    """ENGINE_MEMO=false: no result object is seen twice, none is remembered."""
    monkeypatch.setattr(EntryMemo, "enabled", False)
    system = systems["bastos"]
    document = copy.deepcopy(system.example_rosters()[0].document)
    document["name"] = f"Sans mémoire {uuid.uuid4().hex[:8]}"
    result = system.validate(system.roster_model.model_validate(document))
    assert result_json(result) == result.model_dump_json().encode()
    assert not any(id(entry) in module._parts for entry in result.entries)


def test_an_entry_result_copied_is_written_anew(systems: dict[str, GameSystem]) -> None:
    """An engine adds issues on a copy (app/systems/memo.py): the copy's JSON is its own."""
    system = systems["dcsystem"]
    document = system.example_rosters()[0].document
    result = system.validate(system.roster_model.model_validate(copy.deepcopy(document)))
    result_json(result)
    renamed = result.entries[0].model_copy(update={"name": "Copie"})
    copied = result.model_copy(update={"entries": [renamed, *result.entries[1:]]})
    assert b'"name":"Copie"' in result_json(copied)
    assert result_json(copied) == copied.model_dump_json().encode()


def test_a_second_generals_copy_is_remembered(systems: dict[str, GameSystem]) -> None:
    """No Limits adds « one general » (L101-102) to the second general's result on a copy; the
    copy is remembered as the entry's result is, so its JSON is written once."""
    system = systems["nolimits"]
    document = copy.deepcopy(system.example_rosters()[0].document)
    document["entries"] = [{**e, "general": True} for e in document["entries"]] * 2
    first, again = (
        system.validate(system.roster_model.model_validate({**document, "name": name}))
        for name in ("Première", "Seconde")
    )
    assert any(issue.code == "several_generals" for issue in first.entries[1].issues)
    assert [id(entry) for entry in again.entries] == [id(entry) for entry in first.entries]

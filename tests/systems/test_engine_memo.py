"""The engines' memory of per-entry work (app/systems/memo.py, issue 19) changes no answer:
every example and edited variants of it (a count changed, entries renamed, reordered,
repeated, removed, list-wide rules switched on and off) validate and summarize to the same
JSON with the memory as without it, in one order and again from a warm memory."""

import copy
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from app.systems.base import GameSystem
from app.systems.memo import EntryMemo
from tests.conftest import SYSTEMS


def variants(system: GameSystem, document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    system_id = system.id
    entries = document["entries"]
    yield document
    yield {
        **document,
        "entries": [{**entries[0], "count": entries[0].get("count", 1) % 5 + 1}, *entries[1:]],
    }
    yield {**document, "entries": [{**e, "name": f"Nommé {i}"} for i, e in enumerate(entries)]}
    yield {**document, "entries": list(reversed(entries))}
    yield {**document, "entries": entries * 3}
    yield {**document, "entries": entries[1:] or entries}
    yield {**document, "points_limit": 10}  # over the limit: a list-wide issue
    if system_id == "dcsystem":
        # Renfort entries without the hidden move get an issue each (L359), with it none:
        # the issue is added to a copy, never to the remembered result.
        renfort = [{**e, "group": "renfort"} for e in entries]
        extras = document.get("extras", {})
        yield {**document, "entries": renfort, "extras": {**extras, "hidden_moves": []}}
        yield {**document, "entries": renfort, "extras": {**extras, "hidden_moves": ["renfort"]}}
        yield {**document, "entries": renfort, "extras": {**extras, "hidden_moves": []}}
    if system_id == "nolimits":
        # Two generals: the second one's issue (L101) is its entry's, on a copy.
        generals = [{**e, "general": True} for e in entries]
        yield {**document, "entries": generals}
        yield document
        yield {**document, "entries": generals}
        # The same entries at the same places, the first no longer a general: the second
        # loses its issue (its lines are remembered with the issues they show).
        yield {**document, "entries": [{**entries[0], "general": False}, *generals[1:]]}
        yield {**document, "entries": generals}
    if system_id == "infinity":
        # The list's own trooper (extras.units) in place of the catalogue's, its points
        # changed: remembered by what it says, not by its id.
        unit = entries[0]["unit"]
        trooper = system.data.unit(unit).model_dump(mode="json", exclude_none=True)  # type: ignore[attr-defined]
        for change in (1, 2, 1):
            options = [{**o, "points": o["points"] + change} for o in trooper["options"]]
            own = {**trooper, "options": options}
            own.pop("faction", None)  # a catalogue field, not one of a list's own trooper
            extras = {**document.get("extras", {}), "units": [own]}
            yield {**document, "extras": extras}
            yield document


def answers(system: GameSystem, documents: list[dict[str, Any]]) -> list[Any]:
    out = []
    for document in documents:
        try:
            roster = system.roster_model.model_validate(copy.deepcopy(document))
        except ValueError:
            out.append("invalid")
            continue
        result = system.validate(roster)
        summary = system.summarize(roster, result)
        out.append((result.model_dump(mode="json"), summary.model_dump(mode="json")))
    return out


def without_memory(system: GameSystem, documents: list[dict[str, Any]]) -> list[Any]:
    EntryMemo.enabled = False
    try:
        return answers(system, documents)
    finally:
        EntryMemo.enabled = True


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_memory_changes_no_answer(systems: dict[str, GameSystem], system_id: str) -> None:
    system = systems[system_id]
    documents = [
        variant
        for example in system.example_rosters()
        for variant in variants(system, dict(example.document))
    ]
    assert len(documents) >= 7
    expected = without_memory(system, documents)
    assert sum(answer != "invalid" for answer in expected) >= 7
    assert answers(system, documents) == expected  # filling the memory
    assert answers(system, documents) == expected  # answered from it
    assert answers(system, list(reversed(documents))) == list(reversed(expected))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_each_engine_remembers_its_entries(systems: dict[str, GameSystem], system_id: str) -> None:
    system = systems[system_id]
    memories = [value for value in vars(system).values() if isinstance(value, EntryMemo)]
    assert memories, "no per-entry memory"
    answers(system, [dict(example.document) for example in system.example_rosters()])
    assert all(len(memory) > 0 for memory in memories)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_list_summarized_again_gets_the_same_lines(
    systems: dict[str, GameSystem], system_id: str
) -> None:
    """A save summarizes its list, a view of it summarizes it again: every line is the one
    remembered, not a copy made anew (issue 29: 50 copies a save, `LineCopies`)."""
    system = systems[system_id]
    example = dict(system.example_rosters()[0].document)
    # Entries named anew (no other test's lines remembered for them), first remembered in
    # a list where they stand three times (an Infinity line under another group's heading).
    fresh = uuid.uuid4().hex[:8]
    entries = [{**e, "name": f"{fresh} {i}"} for i, e in enumerate(example["entries"])]
    answers(system, [{**example, "entries": entries * 3}])
    document = {**example, "entries": entries}
    lines = []
    for _ in range(2):
        roster = system.roster_model.model_validate(copy.deepcopy(document))
        lines.append(system.summarize(roster, system.validate(roster)).lines)
    assert len(lines[0]) == len(lines[1]) >= 1
    assert all(a is b for a, b in zip(lines[0], lines[1], strict=True))


def test_a_lists_entry_keys_are_made_once() -> None:
    """The keys of a list's entries (its results', then its lines' memories) are made once
    for the same entry objects, and anew for others (issue 29)."""
    from app.systems.memo import entry_keys, json_key
    from app.systems.summary import Badge

    entries = [Badge(text=f"b{i}", kind="x") for i in range(3)]
    keys = entry_keys(entries)
    assert keys == [json_key(entry) for entry in entries]
    assert entry_keys(list(entries)) is keys
    other = [*entries[:2], Badge(text="autre", kind="x")]
    assert entry_keys(other) == [*keys[:2], json_key(other[2])]
    assert entry_keys(entries) is not keys


def test_a_memory_forgets_the_least_recently_used_first() -> None:
    memo: EntryMemo[str] = EntryMemo(size=2)
    memo("a", lambda: "A")
    memo("b", lambda: "B")
    assert memo("a", lambda: "new A") == "A"  # used: now the most recent
    memo("c", lambda: "C")  # over the bound: "b" goes
    assert len(memo) == 2
    assert memo("a", lambda: "new A") == "A"
    assert memo("b", lambda: "new B") == "new B"


def test_a_lists_values_are_asked_in_one_loop_as_one_by_one() -> None:
    """`each` answers what `__call__` answers key by key: kept values, the others computed
    (with their index) and kept, the least recently used forgotten first (issue 29)."""
    memo: EntryMemo[str] = EntryMemo(size=3)
    memo("a", lambda: "A")
    computed: list[int] = []

    def compute(index: int) -> str:
        computed.append(index)
        return f"new {index}"

    assert memo.each(["b", "a", "c"], compute) == ["new 0", "A", "new 2"]
    assert computed == [0, 2]
    assert memo.each(["c", "b"], compute) == ["new 2", "new 0"]  # kept, not computed
    assert computed == [0, 2]
    assert memo.each(["c", "a"], compute) == ["new 2", "A"]  # kept; "a" now the most recent
    memo("d", lambda: "D")  # over the bound: "b", the least recently used, goes
    assert memo.each(["a", "b"], compute) == ["A", "new 1"] and computed == [0, 2, 1]
    EntryMemo.enabled = False
    try:
        assert memo.each(["c", "d"], compute) == ["new 0", "new 1"]  # nothing asked of it
    finally:
        EntryMemo.enabled = True

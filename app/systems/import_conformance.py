"""What `check_system` holds of a system's import traits (`SystemSpec.imports`,
app/systems/import_traits.py): every name it offers makes an entry its document takes, no
two of its things share a name, and each of its example lists, printed as the exports
print it, is read back to the same lines, budgets, totals, extras and notes.

The printing here is the summary's own parts (what every export writes, whatever its
syntax); tests/imports/ hold the three exports' texts to the same."""

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from app.systems.base import AnySystem, RosterSummary
from app.systems.import_traits import (
    ImportTraits,
    PrintedEntry,
    PrintedList,
    PrintedNote,
    declare_imports,
    import_traits,
    lines_of,
)
from app.systems.name_index import entry_of, words

MISSING = (
    "no import traits (imports=ImportTraits(read=..., names=...)): its lists cannot be "
    "read back from their exports nor typed by hand"
)


def printed_list(summary: RosterSummary) -> PrintedList:
    """A summary as its exports print it: each line with its group, its cost of one, its
    details then its badges; the extras (with their cost) and the notes after them."""
    entries = tuple(
        PrintedEntry(
            lines=(number,),
            count=line.count,
            title=line.title,
            points=line.points_each if summary.has_points else None,
            group=line.group,
            details=(*(d for d in line.details if d), *(b.text for b in line.badges)),
            house_rules=tuple(line.house_rules),
        )
        for number, line in enumerate(summary.lines)
    )
    after = len(entries)
    notes = [PrintedNote(after + i, e.label, e.points) for i, e in enumerate(summary.extras)]
    after += len(notes)
    notes += [PrintedNote(after + i, note) for i, note in enumerate(summary.notes)]
    limit = next((b.limit for b in summary.budgets if b.id == "points"), None)
    return PrintedList(summary.name, entries, tuple(notes), int(limit) if limit else None)


def summary_view(summary: RosterSummary) -> dict[str, Any]:
    """What a reader sees of a list: every line (name, count, cost, group, details, badges),
    the budgets, totals, extras and notes. Two lists that print alike have the same view."""
    return {
        "lines": [
            (
                line.title,
                line.count,
                line.points_each,
                line.group,
                tuple(line.details),
                tuple(badge.text for badge in line.badges),
                tuple(line.house_rules),
            )
            for line in summary.lines
        ],
        "budgets": [budget.model_dump() for budget in summary.budgets],
        "totals": [total.model_dump() for total in summary.totals],
        "extras": [(extra.label, extra.points) for extra in summary.extras],
        "notes": summary.notes,
    }


def read_back(system: AnySystem, traits: ImportTraits, summary: RosterSummary) -> Any:
    """The document `traits` reads from `summary`'s printing, parsed (or why it does not)."""
    printed = printed_list(summary)
    reading = traits.read(system, printed)
    document = {
        "system": system.id,
        "name": summary.name,
        "points_limit": printed.points_limit if system.has_points else None,
        "entries": reading.entries,
        "extras": reading.extras,
    }
    try:
        return system.roster_model.model_validate(document)
    except ValidationError as exc:
        return f"its document does not parse: {exc.errors()[0]['msg']}"


def import_problems(system: AnySystem, traits: ImportTraits | None) -> list[str]:
    """Every way `traits` falls short on `system` (MISSING when it declares none)."""
    if traits is None:
        return [MISSING]
    if import_traits(system) is None:  # built by hand (not by app/catalogues.py)
        declare_imports(system, traits)
    named = list(traits.names(system))
    problems = [
        f"import name {n.name!r} ({n.id}): its entry does not parse"
        for n in named
        if lines_of(system, [entry_of(n, 1)]) is None
    ]
    seen: dict[tuple[str, ...], str] = {}
    for n in named:
        for name in (n.name, *n.aliases):
            other = seen.setdefault(words(name), n.id)
            if other != n.id:
                problems.append(f"import names {other!r} and {n.id!r} read alike ({name!r})")
    check: Callable[[Any], list[str]] = lambda example: _example(system, traits, example)  # noqa: E731
    return problems + [p for example in system.example_rosters() for p in check(example)]


def _example(system: AnySystem, traits: ImportTraits, example: Any) -> list[str]:
    where = f"example {example.id}"
    try:
        document = system.roster_model.model_validate(example.document)
    except ValidationError:
        return []  # said by the examples' own check
    summary = system.summarize(document, system.validate(document))
    again = read_back(system, traits, summary)
    if isinstance(again, str):
        return [f"{where}, read back from its printing: {again}"]
    view = summary_view(summary)
    read = summary_view(system.summarize(again, system.validate(again)))
    for part in view:
        if view[part] != read[part]:
            return [f"{where}, read back from its printing: its {part} differ"]
    return []

"""Issue 30, « Done when », first line: for every system, each example list and 20 generated
lists (tests/imports/generated.py), exported in each format, are read back by the import.

BBCode, Markdown and text (a link to another site, so the text itself is read): the same
lines (names, counts, costs, groups, details, badges, house rules), budgets, totals, extras
and notes as the original, no line « non reconnu ». JSON (a share's `.json`): the same
document, field for field."""

from typing import Any

import pytest

from app.catalogues import load_books
from app.exports import to_bbcode, to_markdown, to_text
from app.imports.checks import checked_text
from app.imports.reading import json_document, read_json, read_text
from app.systems.base import AnySystem, RosterSummary
from app.systems.import_conformance import summary_view
from tests.conftest import SYSTEMS
from tests.imports.generated import generated_lists

ELSEWHERE = "https://ailleurs.example/s/abcd2345"
EXPORTERS = {"text": to_text, "bbcode": to_bbcode, "markdown": to_markdown}


def lists_of(system: AnySystem, systems: dict[str, AnySystem]) -> list[dict[str, Any]]:
    """The system's example lists and its 20 generated ones."""
    book = load_books(systems).get(system.id)
    examples = [example.document for example in system.example_rosters()]
    return examples + generated_lists(system, book)


def summarized(system: AnySystem, document: dict[str, Any]) -> tuple[Any, RosterSummary]:
    parsed = system.roster_model.model_validate(document)
    return parsed, system.summarize(parsed, system.validate(parsed))


@pytest.mark.parametrize("system_id", SYSTEMS)
@pytest.mark.parametrize("shape", list(EXPORTERS))
def test_every_list_reads_back_from_its_export(
    systems: dict[str, AnySystem], system_id: str, shape: str
) -> None:
    system = systems[system_id]
    documents = lists_of(system, systems)
    assert len(documents) >= 21
    for document in documents:
        _parsed, summary = summarized(system, document)
        text = EXPORTERS[shape](summary, ELSEWHERE)
        imported = read_text(systems, None, checked_text(text))
        assert (imported.system.id, imported.shape) == (system_id, shape), document["name"]
        assert summary_view(imported.summary) == summary_view(summary), document["name"]
        assert [line.text for line in imported.lines if line.status == "unknown"] == []
        assert len(imported.lines) == len(text.split("\n"))


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_list_reads_back_from_its_json_export(
    systems: dict[str, AnySystem], system_id: str
) -> None:
    import json

    system = systems[system_id]
    for document in lists_of(system, systems):
        parsed, summary = summarized(system, document)
        share = {
            "code": "abcd2345",
            "system": system_id,
            "catalogue_version": system.catalogue_version,
            "created_at": "2026-12-06T10:00:00Z",
            "roster": parsed.model_dump(mode="json"),
            "validation": system.validate(parsed).model_dump(mode="json"),
            "summary": summary.model_dump(mode="json"),
        }
        found = read_json(systems, system_id, checked_text(json.dumps(share, indent=2)))
        again = json_document(found.system, found)
        assert again.model_dump(mode="json") == parsed.model_dump(mode="json")

"""What the roster editor's form says: the document it describes once its action (add,
remove, undo) is applied, and which summary lines each row shows."""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from fastapi import Request, Response
from pydantic import ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.store.models import Roster
from app.systems.base import AnySystem, RosterSummary, SummaryLine
from app.systems.inputs import is_digits
from app.web.forms import int_or_raw, json_object


class SystemForms(Protocol):
    """The form fields a system adds to the roster editor (see app/systems/dcsystem/web.py)."""

    system_id: str

    @property
    def labels(self) -> Mapping[str, str]: ...

    @property
    def creator(self) -> bool: ...

    def context(self) -> dict[str, Any]: ...

    def reopened(self, entry: dict[str, Any]) -> dict[str, Any] | None: ...

    def entry_from_form(
        self, form: FormData, index: int, entry: dict[str, Any]
    ) -> dict[str, Any]: ...

    def extras_from_form(self, form: FormData) -> dict[str, Any]: ...

    def new_entry(self, form: FormData) -> dict[str, Any] | None: ...

    def add_book_unit(
        self,
        request: Request,
        session: Session,
        form: FormData,
        unit: Any,
        code: str,
        chosen: Roster | None,
    ) -> Response: ...


def entry_ref(entry: dict[str, Any]) -> str:
    """A row's entry without what the row's own fields say, in canonical JSON: the same text
    whether the entry was read from the database (PostgreSQL's JSONB orders keys its own
    way) or is the document just written."""
    return json.dumps(
        {k: v for k, v in entry.items() if k not in ("count", "name")},
        ensure_ascii=False,
        sort_keys=True,
    )


def parsed_entry(text: str) -> dict[str, Any]:
    """An entry sent back as JSON by the page (a row's ref, a removed entry to put back);
    {} for a crafted text (too deep, a huge integer, not an object...): the model then
    refuses the entry."""
    return json_object(text) or {}


@dataclass
class Removed:
    """The entry "Retirer" took out of the list, and where it stood (for "Annuler")."""

    index: int
    entry: dict[str, Any]


def document_from_form(
    form: FormData, system: AnySystem, forms: SystemForms
) -> tuple[dict[str, Any], Removed | None]:
    """The roster document the editor form describes, with its add/remove/undo action
    applied, and the entry a removal took out."""
    entries = []
    index = 0
    while (ref := form.get(f"entry-{index}-ref")) is not None:
        entry = parsed_entry(str(ref))
        entry["count"] = int_or_raw(form.get(f"entry-{index}-count"))
        entry["name"] = str(form.get(f"entry-{index}-name") or "").strip() or None
        entries.append(forms.entry_from_form(form, index, entry))
        index += 1
    action = str(form.get("action") or "")
    position = action.removeprefix("remove:")
    removed = None
    if action.startswith("remove:") and is_digits(position) and int(position[:6]) < len(entries):
        removed = Removed(int(position), entries.pop(int(position)))
    undo_at = str(form.get("undo-index") or "")
    if action == "undo" and is_digits(undo_at) and form.get("undo-entry") is not None:
        # "Annuler" after "Retirer": the entry goes back where it stood.
        entries.insert(min(int(undo_at[:6]), len(entries)), parsed_entry(str(form["undo-entry"])))
    if action == "add" and (new := forms.new_entry(form)) is not None:
        count = int_or_raw(form.get("add-count"))
        entries.append({"count": 1, **new} if count is None else {**new, "count": count})
    return {
        "system": system.id,
        "name": str(form.get("name") or "").strip(),
        "points_limit": int_or_raw(form.get("points_limit")),
        "entries": entries,
        "extras": forms.extras_from_form(form),
    }, removed


def entry_label(system: AnySystem, document: dict[str, Any], entry: dict[str, Any]) -> str:
    """What the player calls an entry: its name, else the name the system gives it."""
    if entry.get("name"):
        return str(entry["name"])
    try:
        alone = system.roster_model.model_validate({**document, "entries": [entry]})
        return str(system.validate(alone).entries[0].name)
    except (ValidationError, IndexError, AttributeError):
        return "l'entrée"


def lines_per_entry(entries: int, summary: RosterSummary | None) -> list[list[SummaryLine]]:
    """The summary lines of each entry (a No Limits unit shows as its troopers, then its
    leader and specialists), by the entry index each line carries."""
    runs: list[list[SummaryLine]] = [[] for _ in range(entries)]
    for line in summary.lines if summary is not None else []:
        if line.entry is not None and 0 <= line.entry < entries:
            runs[line.entry].append(line)
    return runs

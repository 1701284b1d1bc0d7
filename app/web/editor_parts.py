"""A whole form's save that keeps the page's rows (issue 29).

Any change but a count's sends the whole form to `POST /r/{id}`, and its answer used to be
the whole form drawn again: for a 50-entry list, most of the save's CPU went into drawing
rows the page already shows. When the page shows the rows this server drew for the version
the form is based on (static/caserne.js says so with the `shown` field: the last save went
through), the answer is the count path's instead (app/web/counts.py): the rows whose figures
moved, the totals and what follows them, out of band, with the list's title and head.
Nothing else of the form changes on a plain save (no add, removal or undo, no message).

A row is drawn from its entry, its result and summary lines, and the names of
ROW_NAMES; a system whose row controls read more of the list (Infinity's group selects read
every entry's group, its own troopers the extras) gets its rows kept only when no entry but
for its count and name, and not the extras, changed. A row whose sent fields are not
written as the page writes them (« 02 », a name with spaces around it) is drawn again, as
the whole form would have morphed it."""

import re
from collections.abc import Mapping
from typing import Any

from fastapi import Request, Response
from jinja2 import TemplateNotFound, meta, nodes
from pydantic import BaseModel
from starlette.datastructures import FormData

from app.store.models import Roster
from app.systems.base import AnySystem
from app.web.counts import Rows, changed_answer, shown_before, simple
from app.web.editor_form import SystemForms, entry_ref
from app.web.render import is_htmx, templates
from app.web.system_pages import pages_of
from app.web.toolkit import systems_of

# The field static/caserne.js adds to a whole form's save when the page shows what the
# server drew (no refused or failed save since).
SHOWN_FIELD = "shown"
ROW_FIELD = re.compile(r"entry-(\d{1,5})-(.+)")
# What a system's row controls (templates/systems/<id>/entry_controls.html) may read that is
# the row's own: the row's index and entry, and its errors and typed values (none on a save
# that went through).
ROW_NAMES = frozenset({"i", "entry", "errors", "typed"})


def wants_kept_rows(request: Request, form: FormData) -> bool:
    """A plain save of the whole form (no add, removal, undo or share) by a page that shows
    the rows drawn for its version."""
    action = str(form.get("action") or "save")
    return is_htmx(request) and form.get(SHOWN_FIELD) == "1" and action == "save"


# Per system id: whether its row controls read more than the row (see below).
_READS_THE_LIST: dict[str, bool] = {}


def controls_read_the_list(system_id: str, forms: SystemForms) -> bool:
    """Whether the system's row controls read anything but the row's own values and what
    is the same for every list (the system's catalogue context, the templates' globals):
    another entry, the extras... Read once from the template's source (its undeclared
    names); one that includes or imports another template is taken as reading the list."""
    found = _READS_THE_LIST.get(system_id)
    if found is None:
        found = _READS_THE_LIST[system_id] = _reads_the_list(system_id, forms)
    return found


def _reads_the_list(system_id: str, forms: SystemForms) -> bool:
    env = templates.env
    assert env.loader is not None
    try:
        source, _, _ = env.loader.get_source(env, f"systems/{system_id}/entry_controls.html")
    except TemplateNotFound:
        return False
    tree = env.parse(source)
    if any(True for _ in tree.find_all((nodes.Include, nodes.Import, nodes.FromImport))):
        return True
    constants = set(forms.context()) | set(env.globals)
    return bool(meta.find_undeclared_variables(tree) - ROW_NAMES - constants)


def shown_rows(
    request: Request, system: AnySystem, roster: Roster
) -> tuple[dict[str, Any], Rows] | None:
    """Before the save: the document the page shows (the stored version) and its rows, when
    they can be kept (None otherwise)."""
    if not simple(system, roster.document):
        return None
    rows = shown_before(request, system, roster)
    return None if rows is None else (roster.document, rows)


def rewritten_rows(form: FormData, entries: list[Any]) -> set[int]:
    """The rows whose sent fields the whole form would have written otherwise: a count or a
    name not as stored, a number with a leading zero or a text with spaces around it."""
    rows = set()
    for key, value in form.multi_items():
        match = ROW_FIELD.fullmatch(key)
        if match is None or match.group(2) == "ref" or not isinstance(value, str):
            continue
        index, name = int(match.group(1)), match.group(2)
        if index >= len(entries) or not isinstance(entries[index], dict):
            continue
        entry = entries[index]
        if name == "count":
            written = value == str(entry.get("count"))
        elif name == "name":
            written = value == (entry.get("name") or "")
        else:
            written = value == value.strip() and not (
                value.isascii() and value.isdecimal() and str(int(value)) != value
            )
        if not written:
            rows.add(index)
    return rows


def kept_rows_answer(
    request: Request,
    form: FormData,
    shown: tuple[Mapping[str, Any], Rows],
    roster: Roster,
    parsed: BaseModel,
) -> Response | None:
    """After the save of `form`: the answer that keeps the page's rows, or None when the
    whole form must be drawn (`shown`: the document the page showed and its rows; `roster`:
    as saved)."""
    before, old = shown
    system, after = systems_of(request)[roster.system], roster.document
    if not simple(system, after):
        return None
    if controls_read_the_list(system.id, pages_of(request)[system.id]):
        refs = [entry_ref(e) for e in before.get("entries", [])]
        if before.get("extras") != after.get("extras") or refs != [
            entry_ref(e) for e in after.get("entries", [])
        ]:
            return None
    also = rewritten_rows(form, after.get("entries", []))
    return changed_answer(request, system, roster, parsed, old, whole=True, also=also)

"""The count path (issue 19): a count change sends the page's counts and the version it
shows, not its whole form (static/caserne.js), and gets back only the rows whose figures
moved, the totals and what follows them, out of band. The same save as the whole form's
otherwise: what cannot be taken here goes back to it (`WHOLE_FORM`)."""

import re
from collections.abc import Collection
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app import hooks
from app.book_units import drawn_units
from app.roster_service import Refusal, RosterService, StaleVersion, check
from app.store.models import Roster
from app.systems.base import AnySystem
from app.systems.inputs import is_digits
from app.systems.summary import SummaryLine
from app.web.deps import editable, plain_post
from app.web.editor_form import entry_ref, lines_per_entry
from app.web.editor_view import editor, not_saved, share_state, shown_of
from app.web.forms import count_bounds
from app.web.render import render
from app.web.system_pages import pages_of
from app.web.toolkit import roster_session, systems_of

router = APIRouter(include_in_schema=False)

COUNT_FIELD = re.compile(r"entry-(\d{1,5})-count")
# The answer that asks the page for its whole form (static/caserne.js): a count change
# that the count path cannot take alone (a stale version, a bad value) is saved, or
# refused, by the whole form's save, which says why.
WHOLE_FORM = {"HX-Reswap": "none", "HX-Trigger": "caserne:save-whole"}

# What an editor showed of a list: its entries, result, summary lines per entry, extras.
Rows = tuple[list[Any], Any, list[Any], int]


def with_counts(
    document: dict[str, Any], form: FormData, bounds: tuple[int, int]
) -> dict[str, Any] | None:
    """The stored document with the form's entry counts, or None when a count is no
    whole number within `bounds`, or names no entry."""
    entries = list(document.get("entries", []))
    for key, value in form.multi_items():
        match = COUNT_FIELD.fullmatch(key)
        if match is None:
            continue
        index, text = int(match.group(1)), str(value)
        if not (index < len(entries) and is_digits(text) and len(text) <= 6):
            return None
        count = int(text)
        if not bounds[0] <= count <= bounds[1] or not isinstance(entries[index], dict):
            return None
        if entries[index].get("count") != count:
            entries[index] = {**entries[index], "count": count}
    return {**document, "entries": entries}


def changed_rows(
    before: tuple[list[Any], Any, list[Any]], after: tuple[list[Any], Any, list[Any]]
) -> list[int]:
    """The rows whose entry, result or summary lines differ (entries, result, lines). A
    line's group is not drawn in its row (the share page heads each group with it): an
    Infinity group's label counts its figures, and one count change would otherwise redraw
    every row of the group."""
    (entries, result, lines), (new_entries, new_result, new_lines) = before, after
    old_results, new_results = result.entries, new_result.entries
    return [
        i
        for i in range(len(new_entries))
        if entries[i] != new_entries[i]
        # The engines' memory answers an unchanged entry with the same result object.
        or (old_results[i] is not new_results[i] and old_results[i] != new_results[i])
        or (lines[i] != new_lines[i] and drawn(lines[i]) != drawn(new_lines[i]))
    ]


def drawn(lines: list[SummaryLine]) -> list[dict[str, Any]]:
    """What an editor row shows of its summary lines: all but their group."""
    return [{k: v for k, v in vars(line).items() if k != "group"} for line in lines]


def simple(system: AnySystem, document: dict[str, Any]) -> bool:
    """A list whose totals count every entry and whose rows draw no book (as the count path
    asks): its rows are a function of the entries alone."""
    return not hooks.may_leave_out(document) and not drawn_units(system, document)


def count_save(roster_id: str, request: Request, form: FormData, session: Session) -> Response:
    """A count change. All of its database and engine work runs in one trip to the thread
    pool (the editable list's lookup included, and the end of its reads, so that the
    session's closing has nothing left to do there): each trip costs a save CPU."""
    try:
        return counts_saved(editable(request, session, roster_id), request, form, session)
    finally:
        if session.in_transaction():
            session.rollback()  # a read's transaction: nothing is pending (Core writes)


def shown_before(request: Request, system: AnySystem, roster: Roster) -> Rows | None:
    """What the page shows now: remembered from the answer that drew it, else validated
    (None: the stored version is no valid list)."""
    old = shown_of(request).get(roster)
    if old is not None:
        return old
    stored = roster.document
    try:
        before = system.roster_model.model_validate(stored)
    except ValidationError:
        return None
    old_result, old_summary = check(system, before)
    return (
        before.model_dump(mode="json")["entries"],  # as the new rows': normalized
        old_result,
        lines_per_entry(len(stored.get("entries", [])), old_summary),
        len(old_summary.extras),
    )


def counts_saved(roster: Roster, request: Request, form: FormData, session: Session) -> Response:
    system = systems_of(request)[roster.system]
    bounds = count_bounds(system.roster_model).get("count") or (1, 100)
    version = str(form.get("version", ""))
    stored = roster.document
    document = with_counts(stored, form, bounds)
    if document is None or not is_digits(version) or int(version[:9]) != roster.version:
        return Response(status_code=200, headers=WHOLE_FORM)
    try:
        parsed = system.roster_model.model_validate(document)
    except ValidationError:
        return Response(status_code=200, headers=WHOLE_FORM)
    # A campaign's gang (dead fighters leave the totals) and a list drawn from army
    # books (« Mettre à jour » says its totals) get the whole form.
    plain = simple(system, stored)
    old = shown_before(request, system, roster) if plain else None
    if plain and old is None:
        return Response(status_code=200, headers=WHOLE_FORM)
    try:
        roster = RosterService(session, systems_of(request)).replace(
            roster, roster.version, parsed, counted_as=parsed if plain else None
        )
    except StaleVersion:
        return Response(status_code=200, headers=WHOLE_FORM)
    except Refusal as error:
        status, said = not_saved(error)
        return editor(request, roster, document, parsed=parsed, status=status, message=said)
    if old is None:
        return editor(request, roster, roster.document, parsed=parsed)
    return changed_answer(request, system, roster, parsed, old)


def changed_answer(
    request: Request,
    system: AnySystem,
    roster: Roster,
    parsed: BaseModel,
    old: Rows,
    *,
    whole: bool = False,
    also: Collection[int] = (),
) -> Response:
    """The rows that moved (and those in `also`), the totals and what follows them (the
    whole editor when the rows or the extras are not those shown). `whole`: a whole form's
    save (app/web/editor_parts.py), whose answer carries the list's title and head too."""
    new = roster.document
    result, summary = check(system, parsed)
    entries = new.get("entries", [])
    lines = lines_per_entry(len(entries), summary)
    if len(summary.extras) != old[3] or len(old[0]) != len(entries):
        return editor(request, roster, new, parsed=parsed)
    rows = sorted(set(changed_rows(old[:3], (entries, result, lines))).union(also))
    shown_of(request).remember(roster, result, lines, len(summary.extras))
    forms = pages_of(request)[system.id]
    context = {
        "system": system,
        "roster": roster,
        "doc": new,
        "changed_rows": rows,
        "entry_refs": {i: entry_ref(entries[i]) for i in rows},
        "entry_lines": lines,
        "reopen": {i: forms.reopened(entries[i]) is not None for i in rows},
        "count_bounds": count_bounds(system.roster_model),
        "result": result,
        "summary": summary,
        "totals": result,
        "totals_summary": summary,
        "gone": [None] * len(entries),
        "gone_labels": {},
        "book_origins": {},
        "roster_issues": [i for i in result.issues if not i.path.startswith("entries[")],
        "errors": {},
        "typed": {},
        "base_version": roster.version,
        "shared": share_state(request, roster_session(roster), roster),
        "pages": forms,
        "whole": whole,
        **forms.context(),
    }
    answer = render(request, "roster/editor_counts.html", context)
    answer.headers["HX-Reswap"] = "none"
    return answer


# A plain Starlette route, as the share page (app/web/deps.py `plain_post`): the count
# change is the editor's most frequent request (issue 29).
router.add_route("/r/{roster_id}/nombres", plain_post(count_save), methods=["POST"])

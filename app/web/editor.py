"""The list editor's routes: open a list (`GET /r/{id}`) and save its whole form on every
change (`POST /r/{id}`). The page itself is drawn by app/web/editor_view.py; a count
change alone takes the count path (app/web/counts.py)."""

import json
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app import hooks
from app.deps import Rosters
from app.roster_history import entry_label
from app.roster_service import Refusal, RosterService, StoredRosterInvalid
from app.store.models import Roster
from app.systems.base import AnySystem
from app.web.deps import EditableRoster, editable, plain_post
from app.web.editor_form import UNDO_DEPTH, Refused, document_from_form, undo_stack
from app.web.editor_parts import kept_rows_answer, shown_rows, wants_kept_rows
from app.web.editor_view import NOT_SAVED, differences, editor, not_saved, refused_text
from app.web.forms import count_bounds, field_errors, int_or_raw, repaired
from app.web.system_pages import pages_of
from app.web.toolkit import redirect, roster_session, systems_of

router = APIRouter(include_in_schema=False)


@router.get("/r/{roster_id}")
def open_roster(roster: EditableRoster, request: Request, rosters: Rosters) -> Response:
    try:
        parsed = rosters.document(roster)
    except StoredRosterInvalid as invalid:
        labels = pages_of(request)[roster.system].labels
        errors = field_errors(invalid.error, labels=labels)
        return editor(request, roster, roster.document, parsed=None, errors=errors)
    return editor(request, roster, roster.document, parsed=parsed)


def add_values(form: FormData) -> dict[str, Any]:
    """The add panel's values (kept: the page is morphed, not reloaded)."""
    return {
        "unit": str(form.get("add-unit") or ""),
        "count": str(form.get("add-count") or ""),
        "group": str(form.get("add-group") or ""),
    }


def save_form(roster_id: str, request: Request, form: FormData, session: Session) -> Response:
    """One save of the editor's form, all of its work in one trip to the thread pool (the
    editable list's lookup included): a plain route (`plain_post`, below)."""
    try:
        roster = editable(request, session, roster_id)
        return save(roster, request, form, RosterService(session, systems_of(request), "page"))
    finally:
        if session.in_transaction():
            session.rollback()  # the page's reads (a write commits): no trip left to close


def save(roster: Roster, request: Request, form: FormData, rosters: RosterService) -> Response:
    """One save of the editor's form."""
    system = systems_of(request)[roster.system]
    forms = pages_of(request)[system.id]
    document, removed, refused = document_from_form(form, system, forms)
    # The add form keeps the unit chosen; its count is cleared once used.
    adding = (
        form.get("action") == "add"
        and "add" not in refused.errors
        and forms.new_entry(form) is not None
    )
    add = add_values(form)
    try:
        parsed = system.roster_model.model_validate(document)
    except ValidationError as exc:
        return refused_save(request, roster, system, document, exc, adding, add, refused)
    if refused.errors:
        # A row field out of its bounds: nothing is saved, every row and the totals stay
        # (the refused rows at their stored values), the fields show what was typed.
        flash = {"kind": "error", "text": refused_text(refused.errors)}
        return editor(
            request,
            roster,
            document,
            parsed=parsed,
            errors=refused.errors,
            typed=refused.typed,
            add=add,
            status=422,
            message=flash,
        )
    if adding:
        add["count"] = ""  # used: a next add starts from « auto » again
    return stored_save(request, roster, form, rosters, parsed, add, removed, adding)


def stored_save(
    request: Request,
    roster: Roster,
    form: FormData,
    rosters: Rosters,
    parsed: BaseModel,
    add: dict[str, Any],
    removed: Any,
    adding: bool,
) -> Response:
    """The valid form stored over the version it was based on, then the page again (or the
    share page, for « Partager »)."""
    system = systems_of(request)[roster.system]
    stored = parsed.model_dump(mode="json")
    expected = int_or_raw(form.get("version"))
    if form.get("action") == "overwrite":  # « Enregistrer ma version par-dessus »
        expected = int_or_raw(form.get("overwrite-version"))
    # The rows the page shows, when it says it shows those drawn for the version it is
    # based on and the save may keep them (app/web/editor_parts.py).
    shown = None
    if wants_kept_rows(request, form) and expected == roster.version:
        shown = shown_rows(request, system, roster)
    try:
        # A version that is no stored version (text, 2**63...) is simply stale.
        known = isinstance(expected, int) and 0 < expected < 2**31
        roster = rosters.replace(roster, expected if known else -1, parsed)
    except Refusal as error:
        # Nothing is lost: the page keeps what was typed and says why it was not saved.
        status, said = not_saved(error)
        based = expected if isinstance(expected, int) else None
        if said.get("conflict"):
            said["differences"] = differences(system, stored, roster.document)
            said["their_version"] = roster.version
        return editor(
            request,
            roster,
            stored,
            parsed=parsed,
            add=add,
            status=status,
            message=said,
            base_version=based,
        )
    if form.get("action") == "share":
        # What a share shows counts as every total does (the dead left them).
        kept = hooks.counted(roster_session(roster), roster, parsed)
        shared, _created = rosters.share(roster, kept)
        return redirect(request, f"/s/{shared.code}")
    if shown is not None:
        answer = kept_rows_answer(request, form, shown, roster, parsed)
        if answer is not None:
            return answer
    message = saved_message(system, form, stored, removed, adding)
    return editor(request, roster, stored, parsed=parsed, add=add, message=message)


def saved_message(
    system: AnySystem, form: FormData, stored: dict[str, Any], removed: Any, adding: bool
) -> dict[str, Any] | None:
    """The flash after a save: what was removed (with the way back), put back, or added."""
    stack = undo_stack(form)
    if removed is not None:
        # Said where the player looks, with the way back: the entry travels in the flash,
        # after those removed just before it (each can be undone in turn).
        return {
            "kind": "ok",
            "text": f"« {entry_label(system, stored, removed.entry)} » retiré.",
            "undo": [
                *stack,
                (str(removed.index), json.dumps(removed.entry, ensure_ascii=False)),
            ][-UNDO_DEPTH:],
        }
    if form.get("action") == "undo" and stack:
        at = min(int(stack[-1][0]), len(stored["entries"]) - 1)
        label = entry_label(system, stored, stored["entries"][at])
        return {
            "kind": "ok",
            "text": f"« {label} » remis à sa place.",
            "focus": f"#entry-{at}-count",
            "undo": stack[:-1],
        }
    if adding:
        # Said where the player looks (the flash is a status region): what was added, by
        # the name the list gives it (a Bastos or Necromunda figure's own name).
        added = stored["entries"][-1]
        label = entry_label(system, stored, added)
        return {"kind": "ok", "text": f"Ajouté : {added['count']} × {label}."}
    return None


def refused_save(
    request: Request,
    roster: Roster,
    system: AnySystem,
    document: dict[str, Any],
    exc: ValidationError,
    adding: bool,
    add: dict[str, Any],
    refused: Refused,
) -> Response:
    """Nothing is lost: the page keeps what was typed and says what is wrong beside it;
    the table keeps its names and costs, and its totals are the saved list's. A refused
    add is not a row of the list (it would be saved with another value on the next
    change): its fields stay in the add panel, marked."""
    labels = pages_of(request)[system.id].labels
    errors = field_errors(exc, bounds=count_bounds(system.roster_model), labels=labels)
    errors |= refused.errors
    last = len(document["entries"]) - 1
    text = NOT_SAVED
    if adding and all(tuple(e["loc"][:2]) == ("entries", last) for e in exc.errors()):
        document = {**document, "entries": document["entries"][:-1]}
        prefix = f"entries.{last}"
        errors = {
            "add" + key.removeprefix(prefix): message
            for key, message in errors.items()
            if key == prefix or key.startswith(prefix + ".")
        }
        text = f"Ajout refusé : {errors['add']}"
        try:
            return editor(
                request,
                roster,
                document,
                parsed=system.roster_model.model_validate(document),
                errors=errors,
                typed=refused.typed,
                add=add,
                status=422,
                message={"kind": "error", "text": text},
            )
        except ValidationError as rest:
            exc = rest
    return editor(
        request,
        roster,
        document,
        parsed=repaired(system.roster_model, document, exc, roster.document),
        errors=errors,
        typed=refused.typed,
        add=add,
        status=422,
        message={"kind": "error", "text": text + " Les totaux sont ceux de la liste enregistrée."},
    )


# The editor's save of its whole form, a plain Starlette route (issue 29: FastAPI's
# dependency machinery and a second trip to the thread pool cost a save about 0.6 ms).
router.add_route("/r/{roster_id}", plain_post(save_form), methods=["POST"])

"""Roster pages: create, edit (one form, saved on every change), share, duplicate."""

import json
import re
import threading
from collections.abc import Mapping
from typing import Any

from cachetools import LRUCache
from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ValidationError
from sqlalchemy.orm import object_session
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from app import hooks
from app.carnet_service import CarnetService
from app.dates import french_date
from app.db import SessionDep
from app.deps import Rosters
from app.refusals import page_text
from app.roster_service import (
    RosterError,
    RosterService,
    StaleVersion,
    StoredRosterInvalid,
    TooLarge,
    check,
)
from app.store import rosters as store
from app.store.models import Roster
from app.systems.base import AnySystem
from app.systems.inputs import is_digits
from app.systems.summary import SummaryLine
from app.web.deps import (
    ChosenRoster,
    EditableRoster,
    FormDep,
    editable,
    editable_or_none,
    join,
    writing_carnet,
)
from app.web.editor_form import (
    UNDO_DEPTH,
    Refused,
    SystemForms,
    document_from_form,
    entry_label,
    entry_ref,
    lines_per_entry,
    undo_stack,
)
from app.web.forms import (
    bounded_json,
    count_bounds,
    field_errors,
    int_or_raw,
    repaired,
    with_form,
)
from app.web.render import html_error, is_htmx, render


def roster_session(roster: Roster) -> Session:
    """The session a loaded roster belongs to (the editor reads its last share with it)."""
    session = object_session(roster)
    assert isinstance(session, Session)
    return session


def redirect(request: Request, url: str) -> Response:
    """303 for a plain form post; HX-Redirect for HTMX, which would otherwise swap the page in."""
    if is_htmx(request):
        return Response(status_code=204, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)


def empty_document(system: AnySystem) -> dict[str, Any]:
    empty: dict[str, Any] = system.roster_model(system=system.id).model_dump(mode="json")
    return empty


def service_of(request: Request, session: Session) -> RosterService:
    """The roster service for code below the routes (routes get `Rosters`)."""
    return RosterService(session, request.app.state.systems)


SAVE_REFUSED = (
    "Modification non enregistrée : la liste est trop lourde ou un texte contient un "
    "caractère invalide."
)


def not_saved(error: RosterError) -> tuple[int, dict[str, Any]]:
    """The editor's status and message when a save is refused (the values stay shown)."""
    if isinstance(error, StaleVersion):
        text = (
            "Cette liste a été modifiée ailleurs (autre onglet ou appareil) : rien n'est "
            "enregistré tant que vous n'avez pas choisi quelle version garder."
        )
        return 409, {"kind": "warning", "text": text, "conflict": True}
    return (413 if isinstance(error, TooLarge) else 422), {"kind": "error", "text": SAVE_REFUSED}


def differences(system: AnySystem, mine: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    """What the other tab saved that this page would overwrite, in a player's words."""
    lines = []
    if (mine.get("name") or "") != (theirs.get("name") or ""):
        lines.append(
            f"Nom : « {theirs.get('name') or ''} » là-bas, « {mine.get('name') or ''} » ici"
        )
    if mine.get("points_limit") != theirs.get("points_limit"):
        lines.append(
            f"Format : {theirs.get('points_limit')} là-bas, {mine.get('points_limit')} ici"
        )

    def rows(document: dict[str, Any]) -> list[str]:
        return [
            f"{e.get('count')} × {entry_label(system, document, e)}"
            for e in document.get("entries", [])
            if isinstance(e, dict)
        ]

    here, there = rows(mine), rows(theirs)
    lines += [f"Là-bas seulement : {row}" for row in there if row not in here]
    lines += [f"Ici seulement : {row}" for row in here if row not in there]
    if not lines and mine.get("extras") != theirs.get("extras"):
        lines.append("Les options de la liste diffèrent")
    return lines or ["Aucune différence visible : seule la version a changé"]


def refused(request: Request, error: RosterError) -> Response:
    """A roster service refusal as a page for people (app/refusals.py's table)."""
    status, text = page_text(error)
    return html_error(request, status, text)


def create_and_open(
    request: Request, session: Session, system: AnySystem, document: dict[str, Any]
) -> Response:
    """Stores a new roster (only a document the system accepts) and opens its editor."""
    try:
        parsed = system.roster_model.model_validate(document)
    except ValidationError:
        return html_error(
            request, 422, "Cette liste ne correspond plus au catalogue : elle n'a pas été créée."
        )
    CarnetService(session).check_room(writing_carnet(request, session))  # before storing
    roster, _token = service_of(request, session).create(parsed)  # refusals: app/refusals.py
    join(request, session, roster.id)
    return redirect(request, f"/r/{roster.id}")


def add_entry_to_roster(
    request: Request,
    session: Session,
    system: AnySystem,
    form: FormData,
    entry: dict[str, Any],
    chosen: Roster | None,
) -> Response:
    """ "Add to a list" from the catalogue or the creator: to the list chosen (this
    browser's: `ChosenRoster`), or a new one."""
    count = int_or_raw(form.get("count"))
    if isinstance(count, int) and 1 <= count <= 100:
        entry = {**entry, "count": count}
    entry.setdefault("count", 1)
    if chosen is None or chosen.system != system.id:
        document = empty_document(system)
        document["entries"].append(entry)
        return create_and_open(request, session, system, document)
    try:
        service_of(request, session).append_entry(chosen, entry)
    except ValidationError:
        return html_error(request, 422, "Ce combattant n'existe pas dans le catalogue.")
    return added_to(request, system, form, chosen)


def added_to(request: Request, system: AnySystem, form: FormData, roster: Roster) -> Response:
    """After an add to a list: back to the catalogue or the creator it came from, which
    says « Ajouté à « X » » and keeps adding to that list (`retour`: those pages only), or
    to the list's editor."""
    back = str(form.get("retour") or "")
    if back in (f"/{system.id}/catalogue", f"/{system.id}/createur"):
        return redirect(request, f"{back}?liste={roster.id}&ajoute=1")
    return redirect(request, f"/r/{roster.id}")


UNKNOWN_SYSTEM = "Système de jeu inconnu."


def book_origins(
    systems: Mapping[str, AnySystem], system: AnySystem, roster: Roster, document: dict[str, Any]
) -> dict[int, Any]:
    """Each drawn entry's origin (its book's published version), by the entry's index."""
    from app.book_service import BookService, drawn_units

    if not drawn_units(system, document):
        return {}
    return BookService(roster_session(roster), systems).entry_origins(system, document)


def book_units(request: Request, roster: Roster, system: AnySystem) -> list[Any]:
    """The units of this browser's books of the list's system, for the editor's « Ajouter »
    (book, unit); none for Infinity, whose units also need an option (its book's page)."""
    from app.book_service import BookService
    from app.systems.books import is_optioned
    from app.web.deps import browser_carnet

    session = roster_session(roster)
    carnet = browser_carnet(request, session)
    if carnet is None or is_optioned(system):
        return []
    books = BookService(session, request.app.state.systems)
    out = []
    for book in books.of_carnet(carnet)[:50]:
        if book.system == system.id:
            document = books.document(book)
            out += [(book, unit) for unit in document.units]
    return out[:BOOK_UNITS_SHOWN]


BOOK_UNITS_SHOWN = 400


def book_updates(
    systems: Mapping[str, AnySystem],
    system: AnySystem,
    roster: Roster,
    parsed: BaseModel | None,
    document: dict[str, Any],
) -> Any:
    """The newer book versions the list's drawn units would get, or None (no lookup when
    no unit of the list comes from a book)."""
    from app.book_service import BookService, drawn_units

    if parsed is None or not drawn_units(system, document):
        return None
    books = BookService(roster_session(roster), systems)
    found = books.updates(system, parsed)
    if not found.updates:
        return None
    return {
        "updates": found.updates,
        "names": books.unit_names(found),
        "points_before": found.points_before,
        "points_after": found.points_after,
    }


def share_state(request: Request, session: Session, roster: Roster) -> dict[str, Any] | None:
    """What the editor says of the list's last share (None: never shared)."""
    last_share = service_of(request, session).shared(roster)
    if last_share is None:
        return None
    return {
        "code": last_share[0].code,
        "date": french_date(last_share[0].created_at),
        "current": last_share[1],
    }


COUNT_FIELD = re.compile(r"entry-(\d{1,5})-count")
# The answer that asks the page for its whole form (static/caserne.js): a count change
# that the count path cannot take alone (a stale version, a bad value) is saved, or
# refused, by the whole form's save, which says why.
WHOLE_FORM = {"HX-Reswap": "none", "HX-Trigger": "caserne:save-whole"}


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
    return [
        i
        for i in range(len(new_entries))
        if entries[i] != new_entries[i]
        or result.entries[i] != new_result.entries[i]
        or (lines[i] != new_lines[i] and drawn(lines[i]) != drawn(new_lines[i]))
    ]


def drawn(lines: list[SummaryLine]) -> list[dict[str, Any]]:
    """What an editor row shows of its summary lines: all but their group."""
    return [{k: v for k, v in vars(line).items() if k != "group"} for line in lines]


# How many lists' last shown rows each process keeps for their next count change.
SHOWN_LISTS = 64


class Shown:
    """What the editor last showed of a list at a version: its entries, result and summary
    lines per entry, and how many extras (issue 19). A count change compares its new rows
    with these instead of validating the version it replaces a second time. Keyed by
    (list, version): a version is one document (compare-and-swap), so an entry is never
    stale, only missing (another process saved it, or it was evicted), and then the count
    path validates the stored version as before. Bounded by count, guarded by a lock (the
    routes run in the thread pool)."""

    def __init__(self, size: int = SHOWN_LISTS) -> None:
        self._lists: LRUCache[tuple[str, int], tuple[list[Any], Any, list[Any], int]] = LRUCache(
            maxsize=size
        )
        self._lock = threading.Lock()

    def remember(self, roster: Roster, result: Any, lines: list[Any], extras: int) -> None:
        with self._lock:
            self._lists[(roster.id, roster.version)] = (
                roster.document.get("entries", []),
                result,
                lines,
                extras,
            )

    def get(self, roster: Roster) -> tuple[list[Any], Any, list[Any], int] | None:
        with self._lock:
            return self._lists.get((roster.id, roster.version))


NOT_SAVED = "Modification non enregistrée : corrigez les champs signalés."


def refused_text(errors: dict[str, str]) -> str:
    """The flash of a refused save: the add panel's own refusal, else the rows'."""
    return f"Ajout refusé : {errors['add']}" if "add" in errors else NOT_SAVED


def router(systems: dict[str, AnySystem], forms: Mapping[str, SystemForms]) -> APIRouter:
    router = APIRouter(include_in_schema=False)
    shown = Shown()

    def editor(
        request: Request,
        roster: Roster,
        document: dict[str, Any],
        *,
        parsed: BaseModel | None,
        errors: dict[str, str] | None = None,
        message: Mapping[str, Any] | None = None,
        status: int = 200,
        add: dict[str, Any] | None = None,
        base_version: int | None = None,
        typed: dict[str, str] | None = None,
    ) -> Response:
        system = systems[roster.system]
        result = summary = None
        session = roster_session(roster)
        entries = document.get("entries", [])
        # A fighter the ledger says is dead or retired stays in the rows and leaves the
        # totals (api-v1.md « Campaigns »): rows from the whole list, totals from the rest.
        gone = hooks.left_out(session, roster, document)
        totals = totals_summary = None
        if parsed is not None:
            result, summary = check(system, parsed)
            totals, totals_summary = result, summary
            if any(gone):
                kept = hooks.counted(session, roster, parsed, gone)
                totals, totals_summary = check(system, kept)
        entry_lines = lines_per_entry(len(entries), summary)
        if status == 200 and summary is not None and not any(gone) and document == roster.document:
            shown.remember(roster, result, entry_lines, len(summary.extras))
        context = {
            # What the list's units drawn from army books would get (« Mettre à jour »).
            "book_updates": book_updates(systems, system, roster, parsed, document),
            "book_origins": book_origins(systems, system, roster, document),
            "book_units": book_units(request, roster, system),
            "system": system,
            "roster": roster,
            "doc": document,
            "entry_refs": [entry_ref(e) for e in entries],
            "entry_lines": entry_lines,
            # Rows the creator can reopen ("Modifier"), once what is shown is what is stored.
            "reopen": [
                status == 200 and isinstance(e, dict) and forms[system.id].reopened(e) is not None
                for e in entries
            ],
            "count_bounds": count_bounds(system.roster_model),
            "add": add or {},
            "result": result,
            "summary": summary,
            "totals": totals,
            "totals_summary": totals_summary,
            "gone": gone,
            "gone_labels": {"dead": "mort", "retired": "retiré"},
            "roster_issues": [i for i in totals.issues if not i.path.startswith("entries[")]
            if totals
            else [],
            "errors": errors or {},
            # Row fields refused as typed (`entry_bounds`): shown as typed, not as stored.
            "typed": typed or {},
            "message": message,
            # The version this page's values were based on: after a conflict it stays the old
            # one, so that no later change overwrites the other tab's without being asked.
            "base_version": base_version if base_version is not None else roster.version,
            "pages": forms[system.id],
            "shared": share_state(request, session, roster),
            **forms[system.id].context(),
        }
        return render(request, "roster/editor.html", context, block="editor", status=status)

    def create_from_form(request: Request, session: Session, form: FormData) -> Response:
        system = systems.get(str(form.get("system")))
        if system is None:
            return html_error(request, 422, UNKNOWN_SYSTEM)
        example_id = form.get("example")
        if example_id:
            example = next((e for e in system.example_rosters() if e.id == example_id), None)
            if example is None:
                return html_error(request, 404, "Exemple inconnu.")
            return create_and_open(request, session, system, dict(example.document))
        return create_and_open(request, session, system, empty_document(system))

    # Forms are read on the event loop, the database and the engine work in a thread.
    router.add_api_route("/listes", with_form(create_from_form), methods=["POST"])

    @router.post("/listes/ajouter")
    def add_from_form(
        request: Request, session: SessionDep, form: FormDep, chosen: ChosenRoster
    ) -> Response:
        system = systems.get(str(form.get("system")))
        if system is None:
            return html_error(request, 422, UNKNOWN_SYSTEM)
        unit = forms[system.id].new_entry(_renamed(form, {"unit": "add-unit"}))
        if unit is None:
            return html_error(request, 422, "Aucun profil choisi.")
        return add_entry_to_roster(request, session, system, form, unit, chosen)

    @router.post("/r/{roster_id}/livres")
    def update_from_books(
        roster: EditableRoster, request: Request, rosters: Rosters, form: FormDep
    ) -> Response:
        """« Mettre à jour »: one unit (`path`) or all of them take their book's newest
        published version; the page then offers « Annuler » (the units as they were)."""
        from app.book_service import BookService

        system = systems[roster.system]
        version = str(form.get("version", ""))
        path = str(form.get("path", ""))[:40]
        if not is_digits(version):
            return html_error(request, 422, "Version de la liste manquante.")
        books = BookService(roster_session(roster), systems)
        current = rosters.document(roster)
        paths = [path] if path else None
        previous = books.previous_items(system, current, paths)
        applied = books.apply(system, current, paths)
        try:
            document = system.roster_model.model_validate(applied)
        except ValidationError:
            return html_error(request, 422, "Cette mise à jour ne tient plus dans la liste.")
        roster = rosters.replace(roster, int(version[:9]), document)
        count = len(previous)
        message = {
            "kind": "ok",
            "text": f"{count} unité{'s' if count > 1 else ''} mise{'s' if count > 1 else ''} "
            "à jour depuis le livre.",
            "undo_books": json.dumps(previous, ensure_ascii=False),
            "focus": "#undo-books",
        }
        return editor(request, roster, roster.document, parsed=document, message=message)

    @router.post("/r/{roster_id}/livres/ajouter")
    def add_from_book(
        roster: EditableRoster, request: Request, session: SessionDep, form: FormDep
    ) -> Response:
        """The editor's « Ajouter » from one of this browser's books: the unit copied in
        with its origin, as the book's page does (the book published first if changed)."""
        from app.book_service import BookService
        from app.web.book_pages import my_book

        book_id, _, unit_id = str(form.get("book-unit", ""))[:130].partition("/")
        book = my_book(request, session, book_id[:64])
        if book is None or book.system != roster.system:
            return html_error(request, 404, "Ce livre d'armée n'est pas dans ce carnet.")
        books = BookService(session, systems)
        unit = next((u for u in books.document(book).units if u.id == unit_id), None)
        if unit is None:
            return html_error(request, 404, "Cette unité n'est pas dans le livre.")
        share, _new = books.publish(book)
        return forms[roster.system].add_book_unit(request, session, form, unit, share.code, roster)

    @router.post("/r/{roster_id}/livres/annuler")
    def undo_book_updates(
        roster: EditableRoster, request: Request, rosters: Rosters, form: FormDep
    ) -> Response:
        """« Annuler » after « Mettre à jour »: the units as they were before it."""
        from app.book_service import BookService

        system = systems[roster.system]
        version = str(form.get("version", ""))
        previous = bounded_json(str(form.get("undo-books") or ""))
        if not is_digits(version) or not isinstance(previous, dict):
            return html_error(request, 422, "Rien à annuler.")
        books = BookService(roster_session(roster), systems)
        restored, count = books.restored(system, rosters.document(roster), previous)
        try:
            document = system.roster_model.model_validate(restored)
        except ValidationError:
            return html_error(request, 422, "Ces unités ne tiennent plus dans la liste.")
        roster = rosters.replace(roster, int(version[:9]), document)
        message = {
            "kind": "ok",
            "text": f"Mise à jour annulée : {count} unité{'s' if count > 1 else ''} comme avant.",
        }
        return editor(request, roster, roster.document, parsed=document, message=message)

    @router.get("/r/{roster_id}")
    def open_roster(roster: EditableRoster, request: Request, rosters: Rosters) -> Response:
        try:
            parsed = rosters.document(roster)
        except StoredRosterInvalid as invalid:
            return editor(
                request,
                roster,
                roster.document,
                parsed=None,
                errors=field_errors(invalid.error, labels=forms[roster.system].labels),
            )
        return editor(request, roster, roster.document, parsed=parsed)

    def claimed(request: Request, session: Session, roster: Roster) -> Response:
        try:
            join(request, session, roster.id)
        except RosterError:
            return html_error(request, 409, "Ce carnet est plein : supprimez des listes d'abord.")
        return RedirectResponse(f"/r/{roster.id}", status_code=303)

    @router.get("/r/{roster_id}/modifier")
    def claim(
        roster_id: str, t: str, request: Request, session: SessionDep, rosters: Rosters
    ) -> Response:
        """The edit link: the list joins this browser's carnet, then the token leaves the
        URL (the carnet's cookie opens the list from now on). Only a navigation the player
        made (typed, pasted, a bookmark: `Sec-Fetch-Site: none`) or one from Caserne's own
        pages joins at once; one from another site (or from a browser that does not say)
        is asked first, and only the form's POST joins (issue 25: a page on another site
        put the attacker's list in the visitor's carnet)."""
        try:
            roster = rosters.authorize(roster_id, t[:200])
        except RosterError:
            return html_error(request, 403, "Ce lien de modification n'est pas valable.")
        if editable_or_none(request, session, roster.id) is not None:
            return RedirectResponse(f"/r/{roster.id}", status_code=303)
        if request.headers.get("sec-fetch-site") in ("none", "same-origin"):
            return claimed(request, session, roster)
        context = {
            "roster": roster,
            "name": roster.name or "Liste sans nom",
            "system_name": systems[roster.system].name,
            "key": t[:200],
        }
        response = render(request, "roster/claim.html", context)
        response.headers["Cache-Control"] = "private, no-store"
        return response

    def claim_posted(request: Request, session: Session, form: FormData) -> Response:
        roster_id = str(request.path_params["roster_id"])
        rosters = service_of(request, session)
        try:
            roster = rosters.authorize(roster_id, str(form.get("t") or "")[:200])
        except RosterError:
            return html_error(request, 403, "Ce lien de modification n'est pas valable.")
        return claimed(request, session, roster)

    router.add_api_route("/r/{roster_id}/modifier", with_form(claim_posted), methods=["POST"])

    @router.post("/r/{roster_id}")
    def save(roster: EditableRoster, request: Request, form: FormDep, rosters: Rosters) -> Response:
        """One save of the editor's form (a plain `def`: the engine and the database work in
        the thread pool)."""
        system = systems[roster.system]
        document, removed, refused = document_from_form(form, system, forms[system.id])
        # The add form keeps the unit chosen (the page is morphed, not reloaded); its count
        # is cleared once used.
        adding = (
            form.get("action") == "add"
            and "add" not in refused.errors
            and forms[system.id].new_entry(form) is not None
        )
        add = {
            "unit": str(form.get("add-unit") or ""),
            "count": str(form.get("add-count") or ""),
            "group": str(form.get("add-group") or ""),
        }
        try:
            parsed = system.roster_model.model_validate(document)
        except ValidationError as exc:
            return refused_save(request, roster, system, document, exc, adding, add, refused)
        if refused.errors:
            # A row field out of its bounds: nothing is saved, every row and the totals stay
            # (the refused rows at their stored values), the fields show what was typed.
            return editor(
                request,
                roster,
                document,
                parsed=parsed,
                errors=refused.errors,
                typed=refused.typed,
                add=add,
                status=422,
                message={"kind": "error", "text": refused_text(refused.errors)},
            )
        if adding:
            add["count"] = ""  # used: a next add starts from « auto » again
        stored = parsed.model_dump(mode="json")
        expected = int_or_raw(form.get("version"))
        if form.get("action") == "overwrite":  # « Enregistrer ma version par-dessus »
            expected = int_or_raw(form.get("overwrite-version"))
        service = rosters
        try:
            # A version that is no stored version (text, 2**63...) is simply stale.
            known = isinstance(expected, int) and 0 < expected < 2**31
            roster = service.replace(roster, expected if known else -1, parsed)
        except RosterError as error:
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
            shared, _created = service.share(roster, kept)
            return redirect(request, f"/s/{shared.code}")
        message: dict[str, Any] | None = None
        stack = undo_stack(form)
        if removed is not None:
            # Said where the player looks, with the way back: the entry travels in the flash,
            # after those removed just before it (each can be undone in turn).
            message = {
                "kind": "ok",
                "text": f"« {entry_label(system, stored, removed.entry)} » retiré.",
                "undo": [
                    *stack,
                    (str(removed.index), json.dumps(removed.entry, ensure_ascii=False)),
                ][-UNDO_DEPTH:],
            }
        elif form.get("action") == "undo" and stack:
            at = min(int(stack[-1][0]), len(stored["entries"]) - 1)
            label = entry_label(system, stored, stored["entries"][at])
            message = {
                "kind": "ok",
                "text": f"« {label} » remis à sa place.",
                "focus": f"#entry-{at}-count",
                "undo": stack[:-1],
            }
        elif adding:
            # Said where the player looks (the flash is a status region): what was added, by
            # the name the list gives it (a Bastos or Necromunda figure's own name).
            added = stored["entries"][-1]
            label = entry_label(system, stored, added)
            message = {"kind": "ok", "text": f"Ajouté : {added['count']} × {label}."}
        return editor(request, roster, stored, parsed=parsed, add=add, message=message)

    @router.post("/r/{roster_id}/nombres")
    async def save_counts(
        roster_id: str, request: Request, form: FormDep, session: SessionDep
    ) -> Response:
        """A count change (issue 19): the page sends its counts and the version it shows,
        not its whole form (static/caserne.js), and gets back only the rows whose figures
        moved, the totals and what follows them, out of band. The same save as the whole
        form's otherwise: what cannot be taken here goes back to it (WHOLE_FORM).

        All of its database and engine work runs in one trip to the thread pool (the
        editable list's lookup included, and the end of its reads, so that the session's
        closing has nothing left to do there): each trip costs a save CPU."""
        return await run_in_threadpool(count_save, roster_id, request, form, session)

    def count_save(roster_id: str, request: Request, form: FormData, session: Session) -> Response:
        try:
            return counts_saved(editable(request, session, roster_id), request, form, session)
        finally:
            if session.in_transaction():
                session.rollback()  # a read's transaction: nothing is pending (Core writes)

    def counts_saved(
        roster: Roster, request: Request, form: FormData, session: Session
    ) -> Response:
        rosters = RosterService(session, systems)
        system = systems[roster.system]
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
        from app.book_service import drawn_units

        simple = not hooks.may_leave_out(stored) and not drawn_units(system, stored)
        # What the page shows now: remembered from the answer that drew it, else validated.
        old = shown.get(roster) if simple else None
        if simple and old is None:
            try:
                before = system.roster_model.model_validate(stored)
            except ValidationError:
                return Response(status_code=200, headers=WHOLE_FORM)
            old_result, old_summary = check(system, before)
            old = (
                before.model_dump(mode="json")["entries"],  # as `new`'s: normalized
                old_result,
                lines_per_entry(len(stored.get("entries", [])), old_summary),
                len(old_summary.extras),
            )
        try:
            roster = rosters.replace(
                roster, roster.version, parsed, counted_as=parsed if simple else None
            )
        except StaleVersion:
            return Response(status_code=200, headers=WHOLE_FORM)
        except RosterError as error:
            status, said = not_saved(error)
            return editor(request, roster, document, parsed=parsed, status=status, message=said)
        new = roster.document
        if not simple:
            return editor(request, roster, new, parsed=parsed)
        assert old is not None
        result, summary = check(system, parsed)
        entries = new.get("entries", [])
        lines = lines_per_entry(len(entries), summary)
        if len(summary.extras) != old[3] or len(old[0]) != len(entries):
            return editor(request, roster, new, parsed=parsed)
        rows = changed_rows(old[:3], (entries, result, lines))
        shown.remember(roster, result, lines, len(summary.extras))
        context = {
            "system": system,
            "roster": roster,
            "doc": new,
            "changed_rows": rows,
            "entry_refs": {i: entry_ref(entries[i]) for i in rows},
            "entry_lines": lines,
            "reopen": {i: forms[system.id].reopened(entries[i]) is not None for i in rows},
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
            "pages": forms[system.id],
            **forms[system.id].context(),
        }
        answer = render(request, "roster/editor_counts.html", context)
        answer.headers["HX-Reswap"] = "none"
        return answer

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
        labels = forms[system.id].labels
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
            message={
                "kind": "error",
                "text": text + " Les totaux sont ceux de la liste enregistrée.",
            },
        )

    @router.get("/s/{code}/dupliquer")
    def confirm_duplicate(code: str, request: Request, session: SessionDep) -> Response:
        """The « Dupliquer » form with this browser's CSRF field: the share page is cached
        for everyone and cannot carry one, so a browser that sends neither Sec-Fetch-Site
        nor Origin is sent here by the CSRF guard (app/security/csrf.py)."""
        shared = store.get_share(session=session, code=code)
        if shared is None:
            return html_error(request, 404, "Ce lien de partage n'existe pas.")
        name = shared.snapshot["roster"].get("name") or "Liste"
        response = render(request, "share/duplicate.html", {"code": code, "name": name})
        response.headers["Cache-Control"] = "private, no-store"
        return response

    @router.post("/s/{code}/dupliquer")
    def duplicate(code: str, request: Request, session: SessionDep) -> Response:
        shared = store.get_share(session=session, code=code)
        if shared is None:
            return html_error(request, 404, "Ce lien de partage n'existe pas.")
        system = systems.get(shared.system)
        if system is None:
            return html_error(request, 404, "Ce système de jeu n'est plus proposé.")
        document = dict(shared.snapshot["roster"])
        document["name"] = f"{document.get('name') or 'Liste'} (copie)"[:100]
        return create_and_open(request, session, system, document)

    return router


def _renamed(form: FormData, names: dict[str, str]) -> FormData:
    return FormData([(names.get(key, key), value) for key, value in form.multi_items()])

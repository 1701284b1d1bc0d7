"""The list editor's page as drawn (`editor()`): its rows, totals, book panels and flash,
and the memory of what it last showed of a list (`Shown`, read by the count path,
app/web/counts.py). The routes that draw it are in app/web/editor.py, app/web/counts.py
and app/web/book_panels.py."""

import threading
from collections.abc import Mapping
from typing import Any

from cachetools import LRUCache
from fastapi import Request, Response
from pydantic import BaseModel
from sqlmodel import Session

from app import hooks
from app.book_service import BookService
from app.book_units import drawn_units
from app.dates import french_date
from app.roster_history import entry_label
from app.roster_service import Refusal, StaleVersion, TooLarge, check
from app.store.models import Roster
from app.systems.base import AnySystem
from app.systems.books import units_in_entries
from app.web.deps import UNSHARED, browser_carnet
from app.web.editor_form import entry_ref, lines_per_entry
from app.web.forms import count_bounds
from app.web.render import render
from app.web.system_pages import pages_of
from app.web.toolkit import roster_session, service_of, systems_of

SAVE_REFUSED = (
    "Modification non enregistrée : la liste est trop lourde ou un texte contient un "
    "caractère invalide."
)
NOT_SAVED = "Modification non enregistrée : corrigez les champs signalés."
BOOK_UNITS_SHOWN = 400
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


_SHOWN_LOCK = threading.Lock()


def shown_of(request: Request) -> Shown:
    """The app's memory of the rows its editor pages last showed (one per app)."""
    state = request.app.state
    with _SHOWN_LOCK:
        found: Shown | None = getattr(state, "editor_shown", None)
        if found is None:
            found = state.editor_shown = Shown()
    return found


def not_saved(error: Refusal) -> tuple[int, dict[str, Any]]:
    """The editor's status and message when a save is refused (the values stay shown)."""
    if isinstance(error, StaleVersion):
        text = (
            "Cette liste a été modifiée ailleurs (autre onglet ou appareil) : rien n'est "
            "enregistré tant que vous n'avez pas choisi quelle version garder."
        )
        return 409, {"kind": "warning", "text": text, "conflict": True}
    return (413 if isinstance(error, TooLarge) else 422), {"kind": "error", "text": SAVE_REFUSED}


def refused_text(errors: dict[str, str]) -> str:
    """The flash of a refused save: the add panel's own refusal, else the rows'."""
    return f"Ajout refusé : {errors['add']}" if "add" in errors else NOT_SAVED


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


def share_state(request: Request, session: Session, roster: Roster) -> dict[str, Any] | None:
    """What the editor says of the list's last share (None: never shared; known without a
    query when the request's first one found the list never shared, web/deps.py)."""
    if request.scope.get("state", {}).get(UNSHARED) == roster.id:
        return None
    last_share = service_of(request, session).shared(roster)
    if last_share is None:
        return None
    return {
        "code": last_share[0].code,
        "date": french_date(last_share[0].created_at),
        "current": last_share[1],
    }


# --- the book panels' context ---------------------------------------------------------------


def book_origins(
    systems: Mapping[str, AnySystem], system: AnySystem, roster: Roster, document: dict[str, Any]
) -> dict[int, Any]:
    """Each drawn entry's origin (its book's published version), by the entry's index."""
    if not drawn_units(system, document):
        return {}
    return BookService(roster_session(roster), systems).entry_origins(system, document)


def book_units(request: Request, roster: Roster, system: AnySystem) -> list[Any]:
    """The units of this browser's books of the list's system, for the editor's « Ajouter »
    (book, unit); none for a system whose book units need more than the unit (an option:
    its book's page, `BookTraits.units_in_entries`)."""
    session = roster_session(roster)
    carnet = browser_carnet(request, session)
    if carnet is None or not units_in_entries(system):
        return []
    books = BookService(session, request.app.state.systems)
    out = []
    for book in books.of_carnet(carnet)[:50]:
        if book.system == system.id:
            document = books.document(book)
            out += [(book, unit) for unit in document.units]
    return out[:BOOK_UNITS_SHOWN]


def book_updates(
    systems: Mapping[str, AnySystem],
    system: AnySystem,
    roster: Roster,
    parsed: BaseModel | None,
    document: dict[str, Any],
) -> Any:
    """The newer book versions the list's drawn units would get, or None (no lookup when
    no unit of the list comes from a book)."""
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


# --- the page ------------------------------------------------------------------------------


def _totals(
    system: AnySystem, roster: Roster, document: dict[str, Any], parsed: BaseModel | None
) -> dict[str, Any]:
    """The list's result and summary, and its totals: a fighter the ledger says is dead or
    retired stays in the rows and leaves the totals (api-v1.md « Campaigns »)."""
    session = roster_session(roster)
    gone = hooks.left_out(session, roster, document)
    result = summary = totals = totals_summary = None
    if parsed is not None:
        result, summary = check(system, parsed)
        totals, totals_summary = result, summary
        if any(gone):
            kept = hooks.counted(session, roster, parsed, gone)
            totals, totals_summary = check(system, kept)
    return {
        "result": result,
        "summary": summary,
        "totals": totals,
        "totals_summary": totals_summary,
        "gone": gone,
        "roster_issues": [i for i in totals.issues if not i.path.startswith("entries[")]
        if totals
        else [],
    }


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
    """The editor's page (its `editor` block for HTMX) showing `document`."""
    systems = systems_of(request)
    system, forms = systems[roster.system], pages_of(request)[roster.system]
    entries = document.get("entries", [])
    totals = _totals(system, roster, document, parsed)
    summary = totals["summary"]
    entry_lines = lines_per_entry(len(entries), summary)
    shown = status == 200 and summary is not None and document == roster.document
    if shown and not any(totals["gone"]):
        shown_of(request).remember(roster, totals["result"], entry_lines, len(summary.extras))
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
            status == 200 and isinstance(e, dict) and forms.reopened(e) is not None for e in entries
        ],
        "count_bounds": count_bounds(system.roster_model),
        "add": add or {},
        **totals,
        "gone_labels": {"dead": "mort", "retired": "retiré"},
        "errors": errors or {},
        # Row fields refused as typed (`entry_bounds`): shown as typed, not as stored.
        "typed": typed or {},
        "message": message,
        # The version this page's values were based on: after a conflict it stays the old
        # one, so that no later change overwrites the other tab's without being asked.
        "base_version": base_version if base_version is not None else roster.version,
        "pages": forms,
        "shared": share_state(request, roster_session(roster), roster),
        **forms.context(),
    }
    return render(request, "roster/editor.html", context, block="editor", status=status)

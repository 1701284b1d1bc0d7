"""« Historique » (issue 30, « Every save kept »; docs/history.md): a list's kept versions,
newest first, a page at a time; one version read-only; two compared; a version restored
(a new save, so that nothing is lost). The editor links here."""

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel

from app.dates import as_utc, french_datetime
from app.deps import Rosters
from app.history_service import NoSuchVersion, RosterHistory
from app.roster_history import UNCHANGED
from app.roster_service import StaleVersion, StoredRosterInvalid, check
from app.store.models import Roster, RosterVersion
from app.systems.inputs import is_digits
from app.web.deps import EditableRoster, FormDep
from app.web.render import html_error, render
from app.web.toolkit import redirect

router = APIRouter(include_in_schema=False)

PER_PAGE = 20
ORIGINS = {
    "page": "depuis les pages",
    "api": "par un programme (API)",
    "campaign": "par la campagne",
    "file": "depuis un fichier de carnet",
    "upgrade": "avant l'historique",
}
STALE = (
    "La liste a changé depuis l'affichage de cette page (un autre onglet ou appareil) : "
    "rien n'a été rétabli. Voici l'historique à jour."
)
NO_LONGER_VALID = (
    "Cette version ne correspond plus au catalogue d'aujourd'hui : elle ne peut être ni "
    "affichée ni rétablie telle quelle."
)


def number(text: str | None, default: int) -> int:
    """A page or version number from the query (digits, at most 9); `default` otherwise."""
    return int(text) if text is not None and is_digits(text) and len(text) <= 9 else default


def listed_item(row: Any, roster: Roster) -> dict[str, Any]:
    return {
        "version": row.version,
        "when": french_datetime(row.saved_at),
        "when_iso": as_utc(row.saved_at).isoformat(timespec="seconds"),
        "points": row.points,
        "summary": row.summary,
        "origin": ORIGINS.get(row.origin, row.origin),
        "current": row.version == roster.version,
    }


def history_page(
    request: Request,
    roster: Roster,
    rosters: Rosters,
    *,
    message: dict[str, str] | None = None,
    status: int = 200,
) -> Response:
    """The list's versions, a page at a time (`?page=`), newest first."""
    history = RosterHistory(rosters)
    page = max(1, number(request.query_params.get("page"), 1))
    rows, total = history.versions(roster, (page - 1) * PER_PAGE, PER_PAGE)
    pages = max(1, -(-total // PER_PAGE))
    restored = number(request.query_params.get("retablie"), 0)
    if message is None and restored:
        message = {
            "kind": "ok",
            "text": f"Version {restored} rétablie : c'est la version {roster.version} de la "
            "liste. Les versions d'avant restent ci-dessous.",
        }
    context = {
        "roster": roster,
        "system": rosters.system(roster),
        "items": [listed_item(row, roster) for row in rows],
        "page": page,
        "pages": pages,
        "total": total,
        "message": message,
        "choices": [row.version for row in history.versions(roster)[0]],
    }
    return render(request, "roster/history.html", context, status=status)


@router.get("/r/{roster_id}/historique")
def versions_page(request: Request, roster: EditableRoster, rosters: Rosters) -> Response:
    return history_page(request, roster, rosters)


def shown_version(
    rosters: Rosters, roster: Roster, kept: RosterVersion
) -> tuple[BaseModel, Any] | None:
    """A kept version's document parsed today and its summary (None: no longer valid)."""
    try:
        document = RosterHistory(rosters).document(roster, kept)
    except StoredRosterInvalid:
        return None
    system = rosters.system(roster)
    _result, summary = check(system, document)
    return document, summary


@router.get("/r/{roster_id}/historique/comparer")
def compare_page(request: Request, roster: EditableRoster, rosters: Rosters) -> Response:
    """Two kept versions: what changed from the older to the newer, and both totals."""
    history = RosterHistory(rosters)
    first = number(request.query_params.get("de"), 0)
    second = number(request.query_params.get("a"), roster.version)
    older, newer = sorted((first, second))
    try:
        kept = history.version(roster, older), history.version(roster, newer)
    except NoSuchVersion:
        return html_error(request, 404, "Une de ces versions n'est pas (ou plus) gardée.")
    change = history.compare(roster, *kept)
    context = {
        "roster": roster,
        "system": rosters.system(roster),
        "older": listed_item(kept[0], roster),
        "newer": listed_item(kept[1], roster),
        "lines": [] if change.lines == [UNCHANGED] else change.lines,
    }
    return render(request, "roster/history_compare.html", context)


@router.get("/r/{roster_id}/historique/{version}")
def version_page(
    request: Request, roster: EditableRoster, rosters: Rosters, version: str
) -> Response:
    """One kept version, read-only, with the way to restore it."""
    kept = RosterHistory(rosters).version(roster, number(version, 0))  # 404: refusals
    shown = shown_version(rosters, roster, kept)
    context = {
        "roster": roster,
        "system": rosters.system(roster),
        "item": listed_item(kept, roster),
        "s": shown[1] if shown is not None else None,
        "name": (kept.document.get("name") or "Liste sans nom"),
        "invalid": NO_LONGER_VALID if shown is None else None,
        "origins": {},
    }
    return render(request, "roster/history_version.html", context)


@router.post("/r/{roster_id}/historique/{version}/retablir")
def restore(
    request: Request, roster: EditableRoster, rosters: Rosters, form: FormDep, version: str
) -> Response:
    """A new save whose document is that version's, over the version the page showed."""
    seen = number(str(form.get("version") or ""), -1)
    try:
        roster, _document = RosterHistory(rosters).restore(roster, seen, number(version, 0))
    except StaleVersion:
        message = {"kind": "warning", "text": STALE}
        return history_page(request, roster, rosters, message=message, status=409)
    except StoredRosterInvalid:
        return html_error(request, 409, NO_LONGER_VALID)
    return redirect(request, f"/r/{roster.id}/historique?retablie={number(version, 0)}")

"""At the table: the play sheet (/s/{code}/feuille) and the mode partie (/s/{code}/partie,
/r/{id}/partie), both built from a snapshot (app/systems/sheet.py).

The sheet is immutable like its share (ETag, 304); the mode partie keeps its state in the
browser (localStorage): nothing of a game is written on the server. A list's mode partie and
its share's are one game on a device (`game_key`, docs/play-sheets.md).
"""

import hashlib
from typing import Any

from fastapi import APIRouter, Request, Response

from app.deps import ReadSessionDep, Rosters
from app.exports.tts import TtsExport, tts_export
from app.http_cache import immutable_headers, not_modified
from app.roster_service import StoredRosterInvalid, snapshot
from app.store.retention import viewed_share
from app.systems.play_traits import NO_PLAY_TRAITS, Played, PlayTraits
from app.systems.sheet import Sheet, SheetData, build_sheet
from app.web.deps import EditableRoster
from app.web.render import html_error, render
from app.web.toolkit import no_share_page

MAX_TRACKED = 12  # figures of one entry tracked one by one; beyond, the entry counts losses

router = APIRouter(include_in_schema=False)


def traits_of(request: Request, system_id: str) -> PlayTraits:
    """The play traits the system's spec declares (none: the cards alone)."""
    traits: dict[str, PlayTraits] = request.app.state.play_traits
    return traits.get(system_id) or NO_PLAY_TRAITS


def game_entries(played: Played, traits: PlayTraits) -> list[dict[str, Any]]:
    """Each entry's figures as the tracker shows them (one by one up to MAX_TRACKED)."""
    entries = []
    for entry in played.sheet.entries:
        tracked = min(entry.count, MAX_TRACKED)
        figure = traits.figure(played, entry)
        entries.append(
            {
                "entry": entry,
                "figures": [
                    f"{entry.key}-{n}" for n in range(tracked if entry.count <= MAX_TRACKED else 1)
                ],
                "grouped": entry.count > MAX_TRACKED,
                "counters": figure.counters,
                "states": [(state.label, state.out) for state in traits.states],
                "level": figure.worth,
            }
        )
    return entries


def game_key(roster_id: str | None, sheet: Sheet, code: str = "") -> str:
    """The key a game is kept under in the browser: the list and the figures it plays.

    The list's mode partie (/r/{id}/partie) and its share's (/s/{code}/partie) are one game
    when they play the same figures: a player who opens one then the other on the same
    device finds the same wounds and turn. A change of figures (an entry added, a count
    changed, a fighter dead in the campaign) is another game; a rename is not. Hashed: the
    public page does not show the list's id. A share whose list is gone keeps its own."""
    figures = "|".join(f"{entry.key}:{entry.name}:{entry.count}" for entry in sheet.entries)
    owner = f"r:{roster_id}" if roster_id else f"s:{code}"
    return hashlib.sha256(f"{owner}|{sheet.system}|{figures}".encode()).hexdigest()[:24]


def play_context(request: Request, snapshot: dict[str, Any], sheet: Sheet) -> dict[str, Any]:
    """What the sheet and the mode partie show beside the entries, as the system's play
    traits say: each figure's counters and states, the rout test, the panels."""
    traits = traits_of(request, sheet.system)
    played = Played(request.app.state.systems.get(sheet.system), snapshot, sheet)
    panels = []
    for panel in traits.panels:
        data = panel.build(played)
        if data is not None:
            panels.append({"template": f"systems/{sheet.system}/{panel.template}", "data": data})
    return {
        "sheet": sheet,
        "game": game_entries(played, traits),
        "rout": traits.rout.threshold(played) if traits.rout else None,
        "rout_test": traits.rout,
        "panels": panels,
        "opponent_score": traits.opponent_score,
    }


def sheet_data(request: Request, system_id: str) -> SheetData:
    sheets: dict[str, SheetData] = request.app.state.sheets
    return sheets.get(system_id) or SheetData(rules_file="")


def tts_of(request: Request, snapshot: dict[str, Any], url: str) -> TtsExport:
    """A share's figures for Tabletop Simulator: its full sheet's cards, each with the
    counters its mode partie tracks (docs/tts.md)."""
    system_id = str(snapshot["summary"].get("system", ""))
    sheet = build_sheet(snapshot, sheet_data(request, system_id))
    traits = traits_of(request, system_id)
    played = Played(request.app.state.systems.get(system_id), snapshot, sheet)
    return tts_export(sheet, url, lambda entry: traits.figure(played, entry).counters)


@router.get("/s/{code}/feuille")
def play_sheet(
    code: str, request: Request, session: ReadSessionDep, compacte: str = ""
) -> Response:
    """The play sheet: a card per entry with its profile, rules and boxes to tick, then
    the system's quick references; ?compacte=1 prints identical entries once."""
    shared = viewed_share(session, code)  # a view: at most one write a day, on the primary
    if shared is None:
        return no_share_page(request, session, code)
    compact = compacte == "1"
    etag = f"{shared.etag}-sheet{'-c' if compact else ''}"
    headers = immutable_headers(request, etag)
    if not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    system_id = str(shared.snapshot["summary"].get("system", ""))
    sheet = build_sheet(shared.snapshot, sheet_data(request, system_id), compact=compact)
    context = {**play_context(request, shared.snapshot, sheet), "code": code}
    return render(request, "share/sheet.html", context, headers=headers)


@router.get("/s/{code}/partie")
def share_game(code: str, request: Request, session: ReadSessionDep) -> Response:
    """The mode partie of a share: the same for every visitor (its state is the
    browser's), so cacheable like the share."""
    shared = viewed_share(session, code)  # a view: at most one write a day, on the primary
    if shared is None:
        return no_share_page(request, session, code)
    etag = f"{shared.etag}-game"
    headers = immutable_headers(request, etag)
    if not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    system_id = str(shared.snapshot["summary"].get("system", ""))
    sheet = build_sheet(shared.snapshot, sheet_data(request, system_id))
    context = {
        **play_context(request, shared.snapshot, sheet),
        "key": game_key(shared.roster_id, sheet, code),
        "back": f"/s/{code}",
        "shared": True,
    }
    return render(request, "share/game.html", context, headers=headers)


@router.get("/r/{roster_id}/partie")
def roster_game(roster: EditableRoster, request: Request, rosters: Rosters) -> Response:
    """The mode partie of a list its owner opens (the editor's access)."""
    system = request.app.state.systems[roster.system]
    try:
        parsed = rosters.document(roster)
    except StoredRosterInvalid:
        return html_error(request, 422, "Cette liste doit être corrigée avant de la jouer.")
    # The fighters its ledger says are dead or retired do not play (issue 17).
    frozen = snapshot(system, rosters.counted(roster, parsed))
    sheet = build_sheet(frozen, sheet_data(request, roster.system))
    context = {
        **play_context(request, frozen, sheet),
        "key": game_key(roster.id, sheet),
        "back": f"/r/{roster.id}",
        "shared": False,
    }
    # Private like the editor (app/security/headers.py: /r/... is private, no-store); the
    # service worker keeps its own copy for offline use.
    return render(request, "share/game.html", context)

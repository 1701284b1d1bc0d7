"""At the table: the play sheet (/s/{code}/feuille) and the mode partie (/s/{code}/partie,
/r/{id}/partie), both built from a snapshot (app/systems/sheet.py).

The sheet is immutable like its share (ETag, 304); the mode partie keeps its state in the
browser (localStorage): nothing of a game is written on the server.
"""

import re
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request, Response

from app.db import SessionDep
from app.deps import Rosters
from app.http_cache import immutable_headers, not_modified
from app.roster_service import StoredRosterInvalid, snapshot
from app.store import rosters as store
from app.systems.dcsystem.odds import SUCCESS_LABELS, at_least_one_wound
from app.systems.necrowarzone.shooting import read_roll
from app.systems.sheet import Sheet, SheetData, SheetEntry, build_sheet
from app.web.deps import EditableRoster
from app.web.render import html_error, render

MISSING = "Ce lien de partage n'existe pas."
# The modifier totals a Necromunda–Warzone sheet shows for each CT of the gang (L41-49).
NECRO_MODIFIERS = (-3, -2, -1, 0, 1, 2)


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value)


def percent(value: Fraction) -> str:
    return f"{round(float(value) * 100)} %"


def _dice(entry: SheetEntry, kind: str) -> int:
    for badge in entry.badges:
        if badge.kind == kind and (found := re.match(r"(\d+)", badge.text)):
            return int(found.group(1))
    return 0


def dcsystem_odds_table(sheet: Sheet) -> list[dict[str, Any]]:
    """Each shooting pool of the list (red + white dice, then with its blue dice): the chance
    of at least one wound at 5+, 6 and 6 then 4+ (C.3, L228-238)."""
    pools: set[int] = set()
    for entry in sheet.entries:
        red, white = _dice(entry, "dice-red"), _dice(entry, "dice-white")
        if white:
            pools.add(red + white)
            pools.add(red + white + _dice(entry, "dice-blue"))
    return [
        {
            "dice": dice,
            "chances": [
                (fraction_text(chance), percent(chance))
                for chance in (at_least_one_wound(dice, on) for on in SUCCESS_LABELS)  # type: ignore[arg-type]
            ],
        }
        for dice in sorted(pools)
    ]


def necro_to_hit_table(sheet: Sheet, scores: dict[int, int]) -> list[dict[str, Any]]:
    """Each CT of the gang: the roll and chance to hit for each modifier total (L38-49)."""
    cts: set[int] = set()
    for entry in sheet.entries:
        if entry.table and "CT" in entry.table.columns:
            value = entry.table.values[entry.table.columns.index("CT")]
            if value.isdigit() and int(value) in scores:
                cts.add(int(value))
    rows = []
    for ct in sorted(cts):
        cells = []
        for total in NECRO_MODIFIERS:
            roll, chance, _ = read_roll(scores[ct] - total)
            cells.append((roll, fraction_text(chance)))
        rows.append({"ct": ct, "cells": cells})
    return rows


def play_context(request: Request, sheet: Sheet) -> dict[str, Any]:
    """What the sheet and the mode partie show beside the entries, per system."""
    context: dict[str, Any] = {"sheet": sheet, "odds": [], "to_hit": []}
    if sheet.system == "dcsystem":
        context["odds"] = dcsystem_odds_table(sheet)
        context["odds_labels"] = list(SUCCESS_LABELS.values())
    elif sheet.system == "necrowarzone":
        system = request.app.state.systems.get("necrowarzone")
        if system is not None:
            scores = dict(system.data.to_hit_scores)
            context["to_hit"] = necro_to_hit_table(sheet, scores)
            context["to_hit_modifiers"] = [f"{m:+d}" if m else "0" for m in NECRO_MODIFIERS]
    return context


def sheet_data(request: Request, system_id: str) -> SheetData:
    sheets: dict[str, SheetData] = request.app.state.sheets
    return sheets.get(system_id) or SheetData(rules_file="")


def router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/s/{code}/feuille")
    def play_sheet(
        code: str, request: Request, session: SessionDep, compacte: str = ""
    ) -> Response:
        """The play sheet: a card per entry with its profile, rules and boxes to tick, then
        the system's quick references; ?compacte=1 prints identical entries once."""
        shared = store.get_share(session=session, code=code)
        if shared is None:
            return html_error(request, 404, MISSING)
        compact = compacte == "1"
        etag = f"{shared.etag}-sheet{'-c' if compact else ''}"
        headers = immutable_headers(request, etag)
        if not_modified(request, etag):
            return Response(status_code=304, headers=headers)
        system_id = str(shared.snapshot["summary"].get("system", ""))
        sheet = build_sheet(shared.snapshot, sheet_data(request, system_id), compact=compact)
        context = {**play_context(request, sheet), "code": code}
        return render(request, "share/sheet.html", context, headers=headers)

    @router.get("/s/{code}/partie")
    def share_game(code: str, request: Request, session: SessionDep) -> Response:
        """The mode partie of a share: the same for every visitor (its state is the
        browser's), so cacheable like the share."""
        shared = store.get_share(session=session, code=code)
        if shared is None:
            return html_error(request, 404, MISSING)
        etag = f"{shared.etag}-game"
        headers = immutable_headers(request, etag)
        if not_modified(request, etag):
            return Response(status_code=304, headers=headers)
        system_id = str(shared.snapshot["summary"].get("system", ""))
        sheet = build_sheet(shared.snapshot, sheet_data(request, system_id))
        context = {**play_context(request, sheet), "key": f"s:{code}", "back": f"/s/{code}"}
        return render(request, "share/game.html", context, headers=headers)

    @router.get("/r/{roster_id}/partie")
    def roster_game(roster: EditableRoster, request: Request, rosters: Rosters) -> Response:
        """The mode partie of a list its owner opens (the editor's access)."""
        system = request.app.state.systems[roster.system]
        try:
            parsed = rosters.document(roster)
        except StoredRosterInvalid:
            return html_error(request, 422, "Cette liste doit être corrigée avant de la jouer.")
        frozen = snapshot(system, parsed)
        sheet = build_sheet(frozen, sheet_data(request, roster.system))
        context = {
            **play_context(request, sheet),
            "key": f"r:{roster.id}:{roster.version}",
            "back": f"/r/{roster.id}",
        }
        response = render(request, "share/game.html", context)
        response.headers["Cache-Control"] = "private, no-cache"
        return response

    return router

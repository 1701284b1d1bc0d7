"""At the table: the play sheet (/s/{code}/feuille) and the mode partie (/s/{code}/partie,
/r/{id}/partie), both built from a snapshot (app/systems/sheet.py).

The sheet is immutable like its share (ETag, 304); the mode partie keeps its state in the
browser (localStorage): nothing of a game is written on the server. A list's mode partie and
its share's are one game on a device (`game_key`, docs/play-sheets.md).
"""

import hashlib
import re
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request, Response

from app.campaigns.states import counted
from app.db import SessionDep
from app.deps import Rosters
from app.http_cache import immutable_headers, not_modified
from app.roster_service import StoredRosterInvalid, snapshot
from app.store import rosters as store
from app.systems.dcsystem.odds import (
    MAX_DICE,
    SUCCESS_LABELS,
    at_least_one_wound,
    successes,
    wounds,
)
from app.systems.inputs import is_digits
from app.systems.necrowarzone.shooting import read_roll
from app.systems.sheet import Sheet, SheetData, SheetEntry, build_sheet
from app.web.deps import EditableRoster
from app.web.render import html_error, render

MISSING = "Ce lien de partage n'existe pas."
# The modifier totals a Necromunda–Warzone sheet shows for each CT of the gang (L41-49).
NECRO_MODIFIERS = (-3, -2, -1, 0, 1, 2)
MAX_EACH = 15  # dice of one colour on the odds page (a level-3 fighter has a dozen at most)


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
            if is_digits(value) and int(value) in scores:
                cts.add(int(value))
    rows = []
    for ct in sorted(cts):
        cells = []
        for total in NECRO_MODIFIERS:
            roll, chance, _ = read_roll(scores[ct] - total)
            cells.append((roll, fraction_text(chance)))
        rows.append({"ct": ct, "cells": cells})
    return rows


# --- the mode partie: what each figure tracks, per system ------------------------------

MAX_TRACKED = 12  # figures of one entry tracked one by one; beyond, the entry counts losses
# Each system's states of a figure, the last ones taking it out of the game (with the lines
# that name them).
STATES: dict[str, list[tuple[str, bool]]] = {
    # L78-80: a light wound, down, out of action.
    "necrowarzone": [("Debout", False), ("Au tapis", False), ("Hors de combat", True)],
    # L370-382: stunned, out of the fight, dead.
    "bastos": [
        ("En forme", False),
        ("Sonné", False),
        ("Hors de Combat", True),
        ("Raide Mort", True),
    ],
    # L128-132 (Infinity): unconscious, dead.
    "infinity": [("Normal", False), ("Inconscient", False), ("Mort", True)],
}


def _stat(entry: SheetEntry, column: str) -> int | None:
    if entry.table and column in entry.table.columns:
        value = entry.table.values[entry.table.columns.index(column)]
        return int(value) if is_digits(value) else None
    return None


def _level(entry: SheetEntry) -> int:
    for detail in entry.details:
        if found := re.fullmatch(r"Niveau (\d)", detail):
            return int(found.group(1))
    return 0


def counters_of(system: str, entry: SheetEntry) -> list[dict[str, Any]]:
    """The counters of one figure: (id, label, max, whether reaching max takes it out)."""
    if system == "dcsystem":
        # L234: each PV lost takes a red die off; no red die left: out of the game.
        red = _dice(entry, "dice-red")
        return [{"id": "red", "label": "Dés rouges perdus", "max": red, "out": True}] if red else []
    if system == "nolimits":
        boxes = sum(len(row) for rows in entry.tracks for row in rows)
        pv = boxes or _stat(entry, "PV") or 1
        return [{"id": "pv", "label": "PV perdus", "max": pv, "out": True}]
    if system == "necrowarzone":
        pv = _stat(entry, "PV") or 1
        return [
            {"id": "pv", "label": "PV perdus", "max": pv, "out": False},
            {"id": "lw", "label": "Blessures légères", "max": 9, "out": False},
        ]
    return []


def game_entries(sheet: Sheet) -> list[dict[str, Any]]:
    """Each entry's figures as the tracker shows them (one by one up to MAX_TRACKED)."""
    entries = []
    for entry in sheet.entries:
        tracked = min(entry.count, MAX_TRACKED)
        entries.append(
            {
                "entry": entry,
                "figures": [
                    f"{entry.key}-{n}" for n in range(tracked if entry.count <= MAX_TRACKED else 1)
                ],
                "grouped": entry.count > MAX_TRACKED,
                "counters": counters_of(sheet.system, entry),
                "states": STATES.get(sheet.system, []),
                "level": _level(entry),
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


def rout_threshold(sheet: Sheet) -> int | None:
    """Necromunda–Warzone's losses for a rout test (L84), as the summary's totals say."""
    for total in sheet.totals:
        if total.label.startswith("pertes pour un test de déroute") and is_digits(total.value):
            return int(total.value)
    return None


def play_context(request: Request, sheet: Sheet) -> dict[str, Any]:
    """What the sheet and the mode partie show beside the entries, per system."""
    context: dict[str, Any] = {
        "sheet": sheet,
        "odds": [],
        "to_hit": [],
        "game": game_entries(sheet),
        "rout": rout_threshold(sheet),
    }
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
        context = {
            **play_context(request, sheet),
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
        frozen = snapshot(system, counted(rosters.session, roster, parsed))
        sheet = build_sheet(frozen, sheet_data(request, roster.system))
        context = {
            **play_context(request, sheet),
            "key": game_key(roster.id, sheet),
            "back": f"/r/{roster.id}",
            "shared": False,
        }
        # Private like the editor (app/security/headers.py: /r/... is private, no-store); the
        # service worker keeps its own copy for offline use.
        return render(request, "share/game.html", context)

    @router.get("/dcsystem/chances")
    def dcsystem_chances(
        request: Request,
        rouges: str = "3",
        bleus: str = "0",
        blancs: str = "2",
        reussite: str = "5+",
    ) -> Response:
        """Odds of a DCSystem pool: k successes and the PV they take off, exact."""
        form = {
            "rouges": rouges[:8],
            "bleus": bleus[:8],
            "blancs": blancs[:8],
            "reussite": reussite,
        }
        errors: dict[str, str] = {}
        counts: dict[str, int] = {}
        for field in ("rouges", "bleus", "blancs"):
            value = form[field].strip()
            if not is_digits(value) or int(value) > MAX_EACH:
                errors[field] = f"« {value} » : un nombre de dés de 0 à {MAX_EACH}."
            else:
                counts[field] = int(value)
        if reussite not in SUCCESS_LABELS:
            errors["reussite"] = "Choisissez 5+, 6 ou 6 puis 4+."
        dice = sum(counts.values())
        if not errors and not 1 <= dice <= MAX_DICE:
            errors["rouges"] = f"Lancez de 1 à {MAX_DICE} dés en tout."
        result = None
        if not errors:
            on: Any = reussite
            chance = at_least_one_wound(dice, on)
            result = {
                "dice": dice,
                "label": SUCCESS_LABELS[reussite],
                "at_least_one": fraction_text(chance),
                "at_least_one_pct": percent(chance),
                "successes": [
                    (k, fraction_text(p), percent(p)) for k, p in successes(dice, on).items()
                ],
                "wounds": [(w, fraction_text(p), percent(p)) for w, p in wounds(dice, on).items()],
            }
        context = {
            "form": form,
            "errors": errors,
            "result": result,
            "max_each": MAX_EACH,
            "success_choices": list(SUCCESS_LABELS.items()),
        }
        return render(
            request, "systems/dcsystem/chances.html", context, status=422 if errors else 200
        )

    return router

"""Infinity pages: the catalogue, the trooper creator (profile and options tables like the
books', live cost and SWC), and the fields the roster editor adds (combat group, reserve,
option; the introductory-game switch; the list's own troopers)."""

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.db import SessionDep
from app.store.models import Roster
from app.systems.infinity import InfinitySystem
from app.systems.infinity.forms import (
    ava_value,
    combat_order,
    entry_count,
    entry_ref,
    group_of,
    group_value,
    slug,
    swc_value,
    unique,
    with_trooper,
)
from app.systems.infinity.models import (
    AD_COMBAT_JUMP,
    DOCTEUR,
    HACKER,
    HIGHEST_GROUP,
    PARAMEDICAL,
    InfinityCostRequest,
)
from app.web.deps import ChosenRoster, FormDep
from app.web.editor_form import BookPick
from app.web.forms import form_text, int_or_raw, json_objects
from app.web.render import html_error
from app.web.system_pages import SystemPages
from app.web.toolkit import added_to, create_and_open, empty_document, service_of

ATTRIBUTES = ("CC", "TR", "PH", "VOL", "BL", "B")
KNOWN_SKILLS = (AD_COMBAT_JUMP, DOCTEUR, PARAMEDICAL, HACKER)
OPTION_ROWS = 4  # rows offered by the creator's options table (more on demand)
MAX_OPTION_ROWS = 12

# The pages' own stylesheet, served from this package (the Content-Security-Policy allows no
# inline <style>): immutable, its URL carrying its content's hash.
STYLESHEET = (Path(__file__).parent / "static" / "infinity.css").read_bytes()
STYLESHEET_URL = f"/infinity/static/infinity.css?v={hashlib.sha256(STYLESHEET).hexdigest()[:12]}"
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}

# The creator opens on a trooper of Caserne's own invention (no Corvus Belli profile).
DEFAULT_TROOPER: dict[str, Any] = {
    "name": "Fusilier de la Compagnie",
    "profile": {"MOV1": 10, "MOV2": 5, "CC": 13, "TR": 12, "PH": 10, "VOL": 13, "BL": 1, "B": 1},
    "orders": "regular",
    "impetuous": False,
    "ava": None,
    "skills": [],
    "free_skills": "",
    "options": [
        {"name": "Fusil d'assaut", "points": 10, "swc": "0", "lieutenant": False, "equipment": []},
        {
            "name": "Lieutenant, Fusil d'assaut",
            "points": 10,
            "swc": "0",
            "lieutenant": True,
            "equipment": [],
        },
        {
            "name": "Mitrailleuse lourde",
            "points": 19,
            "swc": "1",
            "lieutenant": False,
            "equipment": [],
        },
    ],
    "option_rows": OPTION_ROWS,
    "chosen": 0,
    "group": 1,
}


class InfinityPages(SystemPages[InfinitySystem]):
    # The last form's combat order (entry_from_form is asked once per row of one form); a
    # tuple swapped whole, so a save in another thread never reads another form's order.
    _order: tuple[FormData, list[int]] | None = None
    _groups: tuple[Any, int, Any] | None = None
    labels: ClassVar[Mapping[str, str]] = {
        "group": "Groupe",
        "option": "Option",
        "reserve": "En réserve",
        "ava": "AVA",
        "swc": "SWC",
        "orders": "Ordres",
        "MOV": "MOV",
        "options": "Options",
        "skills": "Compétences",
        "units": "Soldats de la liste",
    }

    lookups = ("units", "skills", "equipment")

    def catalogue_context(self, cat: Any) -> dict[str, Any]:
        return {
            "known_skills": KNOWN_SKILLS,
            "attributes": ATTRIBUTES,
            "infinity_css": STYLESHEET_URL,
            "highest_group": HIGHEST_GROUP,
        }

    # --- the creator ---------------------------------------------------------------------

    def default_unit(self) -> dict[str, Any]:
        values: dict[str, Any] = json.loads(json.dumps(DEFAULT_TROOPER))
        return values

    def unit_from_form(self, form: FormData) -> dict[str, Any]:
        rows = int_or_raw(form.get("option_rows"))
        rows = min(max(rows if isinstance(rows, int) else OPTION_ROWS, 1), MAX_OPTION_ROWS)
        if form.get("action") == "more_options":
            rows = min(rows + 1, MAX_OPTION_ROWS)
        options = []
        for index in range(rows):
            key = f"o{index}"
            options.append(
                {
                    "name": form_text(form, f"{key}-name"),
                    "points": int_or_raw(form.get(f"{key}-points")),
                    "swc": form_text(form, f"{key}-swc", 10),
                    "lieutenant": bool(form.get(f"{key}-lt")),
                    "equipment": [str(e) for e in form.getlist(f"{key}-equipment")],
                }
            )
        chosen = int_or_raw(form.get("chosen"))
        return {
            "name": form_text(form, "name"),
            "profile": {
                key: int_or_raw(form.get(f"p-{key}")) for key in ("MOV1", "MOV2", *ATTRIBUTES)
            },
            "orders": "irregular" if form.get("orders") == "irregular" else "regular",
            "impetuous": bool(form.get("impetuous")),
            "ava": ava_value(form.get("ava")),
            "skills": [s for s in (str(v) for v in form.getlist("skills")) if s in KNOWN_SKILLS],
            "free_skills": form_text(form, "free_skills", 300),
            "options": options,
            "option_rows": rows,
            "chosen": chosen if isinstance(chosen, int) else 0,
            "group": int_or_raw(form.get("group")) or 1,
        }

    def trooper(self, values: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """The trooper the creator's values describe (api-v1.md shape), and the id of the
        option chosen for the live check. Rows without a name are left out."""
        taken: set[str] = set()
        options = []
        chosen_id = ""
        for index, row in enumerate(values["options"]):
            if not row["name"]:
                continue
            option_id = unique(slug(row["name"], "option"), taken)
            taken.add(option_id)
            options.append(
                {
                    "id": option_id,
                    "name": row["name"],
                    "points": row["points"] if row["points"] is not None else 0,
                    "swc": swc_value(row["swc"]),
                    "lieutenant": row["lieutenant"],
                    "equipment": row["equipment"],
                }
            )
            if index == values["chosen"] or not chosen_id:
                chosen_id = option_id
        free = [part.strip()[:80] for part in values["free_skills"].split(",") if part.strip()]
        profile = values["profile"]
        name = values["name"] or "Soldat"
        trooper = {
            "id": slug(name, "soldat"),
            "name": name,
            "orders": values["orders"],
            "impetuous": values["impetuous"],
            "ava": values["ava"],
            "profile": {
                "MOV": [profile["MOV1"], profile["MOV2"]],
                **{key: profile[key] for key in ATTRIBUTES},
            },
            "skills": list(dict.fromkeys([*values["skills"], *free])),
            "options": options,
        }
        return trooper, chosen_id or "option"

    def definition(self, values: dict[str, Any]) -> dict[str, Any]:
        trooper, option = self.trooper(values)
        return {"unit": trooper, "option": option}

    def router(self) -> APIRouter:
        """The shared routes, with "add to a list" taken over (an Infinity list carries its
        own troopers, `extras.units`: adding one stores the trooper and an entry), and the
        pages' stylesheet."""
        router = APIRouter(include_in_schema=False)

        @router.get(f"/{self.system_id}/static/infinity.css")
        def stylesheet() -> Response:
            return Response(STYLESHEET, media_type="text/css", headers=IMMUTABLE)

        @router.post(f"/{self.system_id}/createur/ajouter")
        def creator_add(
            request: Request, session: SessionDep, form: FormDep, chosen: ChosenRoster
        ) -> Response:
            values = self.unit_from_form(form)
            try:
                request_body = InfinityCostRequest.model_validate(self.definition(values))
            except ValidationError as exc:
                return self.creator_page(
                    request, session, values, status=422, errors=self.errors_of(exc)
                )
            return self.add_trooper(request, session, form, request_body, values, chosen)

        router.include_router(super().router())
        return router

    def add_trooper(
        self,
        request: Request,
        session: Session,
        form: FormData,
        body: InfinityCostRequest,
        values: dict[str, Any],
        roster: Roster | None,
    ) -> Response:
        count = int_or_raw(form.get("count"))
        group = values["group"] if isinstance(values["group"], int) else 1
        if roster is None or roster.system != self.system_id:
            document = with_trooper(
                empty_document(self.system), body, self.catalogue_ids(), count, group
            )
            return create_and_open(request, session, self.system, document)
        ids = self.catalogue_ids()
        try:
            service_of(request, session).edit(
                roster, lambda document: with_trooper(document, body, ids, count, group)
            )
        except ValidationError:
            return html_error(request, 422, "Ce soldat ne tient pas dans la liste choisie.")
        return added_to(request, self.system, form, roster)

    def add_book_unit(
        self, request: Request, session: Session, form: FormData, pick: BookPick
    ) -> Response:
        """A book's trooper into the list's own troopers (`extras.units`) with its origin,
        and an entry of the option chosen on the book's page."""
        unit = pick.unit
        trooper = {**unit.definition, "source": {"book": pick.code, "unit": unit.id}}
        try:
            body = InfinityCostRequest.model_validate(
                {"unit": trooper, "option": form_text(form, "option", 60)}
            )
        except ValidationError:
            return html_error(
                request, 422, "Ce soldat ou cette option ne peut pas entrer dans une liste."
            )
        group = int_or_raw(form.get("group"))
        values = {"group": group if isinstance(group, int) and 1 <= group <= 100 else 1}
        return self.add_trooper(request, session, form, body, values, pick.chosen)

    def catalogue_ids(self) -> set[str]:
        return set(self.context()["units"])

    # --- the roster editor ---------------------------------------------------------------

    def new_entry(self, form: FormData) -> dict[str, Any] | None:
        """ "unit/option" from the editor's or the catalogue's select."""
        value = str(form.get("add-unit") or "")
        unit, _, option = value.partition("/")
        if not unit or not option:
            return None
        group = group_value(form.get("add-group"))
        if group is None:
            groups = [group_of(form, i) for i in range(entry_count(form))]
            group = max([g for g in groups if g < 10**9], default=1)
        return {"unit": unit, "option": option, "group": group}

    def add_refusal(self, form: FormData) -> dict[str, str]:
        """A group past the next one the list can open (L85 numbers the groups in turn; the
        rows' selects offer one past the highest used) is refused, as those selects would.
        Out of 1..HIGHEST_GROUP or not a number, the model says why."""
        group = group_value(form.get("add-group"))
        if not isinstance(group, int) or group > HIGHEST_GROUP:
            return {}
        used = [
            g for g in (group_of(form, i) for i in range(entry_count(form))) if g <= HIGHEST_GROUP
        ]
        top = min(max(used, default=1) + 1, HIGHEST_GROUP)
        if group <= top:
            return {}
        message = f"Groupe : au plus {top} (le groupe qui suit le dernier de la liste)"
        return {"add": message, "add.group": message}

    def group_top(self, entries: Any, group: Any, highest: int) -> Any:
        """The last group a row's select offers: one past the highest group used (by any
        entry, or by this row's `group`), never past `highest`. The highest used is kept
        for the last list asked (issue 19: each row of a page used to scan every row, and
        Jinja's min/max filters cost 0.8 ms a call)."""
        last = self._groups
        if last is not None and last[0] is entries and last[1] == highest:
            used = last[2]
        else:
            groups = [
                g
                for e in (entries if isinstance(entries, list) else [])
                if isinstance(g := e.get("group") if isinstance(e, dict) else None, int | float)
                and g <= highest
            ]
            used = max(groups) if groups else 1
            self._groups = (entries, highest, used)
        own = group if isinstance(group, int | float) and group <= highest else 1
        return min(max(used, own) + 1, highest)

    def entry_from_form(self, form: FormData, index: int, entry: dict[str, Any]) -> dict[str, Any]:
        """The entry at `index` once the list is ordered by combat group (a trooper moved
        to another group joins the end of its block, so that exports print one heading per
        group). A removal keeps the order the player saw, so that the right line goes."""
        source = index
        if not str(form.get("action") or "").startswith("remove:"):
            # One order per form, not one per row (document_from_form asks row by row).
            last = self._order
            if last is None or last[0] is not form:
                last = self._order = (form, combat_order(form))
            source = last[1][index]
        if source != index:
            entry = entry_ref(form, source)
            entry["count"] = int_or_raw(form.get(f"entry-{source}-count"))
            entry["name"] = form_text(form, f"entry-{source}-name") or None
        key = f"entry-{source}"
        if form.get(f"{key}-group") is not None:
            entry["group"] = group_value(form.get(f"{key}-group"))
            entry["reserve"] = bool(form.get(f"{key}-reserve"))
        if option := form.get(f"{key}-option"):
            entry["option"] = str(option)
        return entry

    def extras_from_form(self, form: FormData) -> dict[str, Any]:
        # The list's own troopers, sent back as the page wrote them; anything else (too
        # deep, a number, `true`...) is None, which the model refuses in French (« liste
        # attendue ») and the templates read as no trooper (issue 13: these were 500s).
        units = json_objects(str(form.get("extras-units") or "[]"))
        return {"units": units, "ava": not form.get("initiation")}

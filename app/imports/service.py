"""An import as the API and the pages ask for it: a JSON export taken whole, a text holding
a share link of this site answered from that share (exactly: its frozen document), any
other text read line by line (app/imports/reading.py). Reads shares; stores nothing."""

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from sqlmodel import Session

from app.imports.checks import checked_text
from app.imports.reading import (
    Imported,
    chosen_system,
    json_document,
    read_json,
    read_text,
    whole,
)
from app.store import rosters as store
from app.systems.base import AnySystem

GONE = "le lien de partage de ce texte n'ouvre plus de liste : la liste est lue depuis le texte"


def share_codes(text: str, base: str) -> list[str]:
    """The share codes of the links to this site (`base`) that `text` holds, in order."""
    found = re.findall(re.escape(base.rstrip("/")) + r"/s/([0-9a-z]{1,16})(?![0-9a-z])", text)
    return list(dict.fromkeys(found))


def import_list(
    session: Session,
    systems: Mapping[str, AnySystem],
    base: str,
    text: str,
    wanted: str | None = None,
    choices: Mapping[int, str] | None = None,
) -> Imported:
    """What `text` is as a list of one of `systems` (`wanted`, when given). Refusals are
    `ImportRefused`."""
    text = checked_text(text)
    if text.lstrip().startswith("{"):
        found = read_json(systems, wanted, text)
        shared = from_share(session, systems, wanted, found.share, text) if found.share else None
        if shared is not None and shared.document.model_dump(mode="json") == found.document:
            return shared
        note = "document JSON de Caserne, repris tel quel"
        return whole(found.system, "json", json_document(found.system, found), text, note)
    codes = share_codes(text, base)
    for code in codes:
        shared = from_share(session, systems, wanted, code, text)
        if shared is not None:
            return shared
    imported = read_text(systems, wanted, text, choices)
    if codes:
        imported.lost.insert(0, GONE)
    return imported


def from_share(
    session: Session, systems: Mapping[str, AnySystem], wanted: str | None, code: str, text: str
) -> Imported | None:
    """The list of the share `code` of this site, as frozen (None when no such share is
    kept, or its document no longer fits the catalogue)."""
    shared = store.get_share(session=session, code=code)
    system = systems.get(shared.system) if shared is not None else None
    if shared is None or system is None:
        return None
    chosen_system(systems, wanted, system)
    roster: Any = shared.snapshot.get("roster")
    try:
        document = system.roster_model.model_validate(roster)
    except ValidationError:
        return None
    imported = whole(system, "share", document, text, f"liste reprise du partage {code}")
    imported.share = code
    return imported

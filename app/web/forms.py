"""Small helpers shared by the HTML form handlers."""

from typing import Any

from fastapi import Request
from pydantic import ValidationError
from sqlmodel import Session

from app.store import rosters as store
from app.store.models import Roster
from app.web.access import my_roster_ids, token_for


def int_or_raw(value: Any) -> Any:
    """An integer when the field holds one, else the raw text (pydantic then says what is wrong)."""
    if value is None:
        return None
    text = str(value).strip()
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return text


def field_errors(exc: ValidationError) -> dict[str, str]:
    """Pydantic errors keyed by the form control they concern ("points_limit", "entries.2")."""
    errors: dict[str, str] = {}
    for err in exc.errors():
        loc = [str(part) for part in err["loc"]]
        key = ".".join(loc[:2]) if loc and loc[0] == "entries" else (loc[0] if loc else "")
        message = FRENCH.get(err["type"], err["msg"])
        errors.setdefault(key, f"{message} ({'.'.join(loc)})" if len(loc) > 1 else message)
    return errors


FRENCH = {
    "int_parsing": "Nombre entier attendu",
    "int_type": "Nombre entier attendu",
    "greater_than_equal": "Valeur trop petite",
    "less_than_equal": "Valeur trop grande",
    "literal_error": "Valeur inconnue",
    "value_error": "Valeur incorrecte",
    "missing": "Champ obligatoire",
    "string_too_long": "Texte trop long",
    "string_pattern_mismatch": "Caractère interdit",
    "too_long": "Trop d'éléments",
}


def my_rosters(request: Request, session: Session) -> list[Roster]:
    """Rosters this browser holds a valid edit token for, newest first."""
    found = []
    for roster_id in my_roster_ids(request):
        roster = store.get_roster(session=session, roster_id=roster_id)
        if roster is not None and store.token_matches(roster, token_for(request, roster_id)):
            found.append(roster)
    return sorted(found, key=lambda r: r.updated_at, reverse=True)


def roster_choices(request: Request, session: Session, system_id: str) -> list[Roster]:
    return [r for r in my_rosters(request, session) if r.system == system_id]

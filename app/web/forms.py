"""Small helpers shared by the HTML form handlers."""

import json
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import Request, Response
from pydantic import BaseModel, ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.db import SessionDep
from app.store.models import Roster
from app.systems.inputs import JSON_MAX_DEPTH, free_json_refusal, is_digits
from app.validation_text import french_message
from app.web.deps import FormDep, my_lists


def form_text(form: FormData, key: str, limit: int = 80) -> str:
    """A text field as typed, trimmed and cut to `limit` characters."""
    return str(form.get(key) or "").strip()[:limit]


def int_or_raw(value: Any) -> Any:
    """An integer when the field holds one as a number field writes it (ASCII digits, a
    minus sign: is_digits), else the raw text (pydantic then says what is wrong)."""
    if value is None:
        return None
    text = str(value).strip()
    if text == "":
        return None
    if not is_digits(text.removeprefix("-")):
        return text
    try:
        return int(text)
    except ValueError:  # more digits than int() reads (4,300)
        return text


# What a JSON value sent back by a page (a row's ref, the list's own troopers, the units
# « Annuler » restores) may hold: the pages write them, so deeper nesting, a huge integer or
# a NaN can only be crafted. Bounded here, where they enter, as the API bounds its free JSON
# (free_json_refusal): nothing later (a deepcopy, a template, a validator) recurses or counts
# without bound.


def bounded_json(text: str, *, max_depth: int = JSON_MAX_DEPTH) -> Any:
    """The JSON value of `text`, or None when it is not JSON or free_json_refusal refuses
    it (nested deeper than `max_depth`, an integer over 2**53, a NaN or an Inf, a lone
    surrogate). Total: any string in, a value or None out, in time linear in the text."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nesting past the parser's limit
        return None
    return None if free_json_refusal(value, max_depth) is not None else value


def json_object(text: str) -> dict[str, Any] | None:
    """A bounded JSON object (bounded_json), or None."""
    value = bounded_json(text)
    return value if isinstance(value, dict) else None


def json_objects(text: str) -> list[dict[str, Any]] | None:
    """A bounded JSON list of objects (bounded_json), or None (`1`, `true`, `[1]`...)."""
    value = bounded_json(text)
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        return value
    return None


Bounds = dict[str, tuple[int, int]]


def field_errors(
    exc: ValidationError,
    *,
    bounds: Bounds | None = None,
    labels: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """Pydantic errors in French, naming the field and its allowed values, keyed by the form
    control they concern: the section ("points_limit", "profile", "entries.2") and the exact
    field ("entries.2.count", "profile.AC") so that a template can mark the input itself.
    `labels` are the system's own names of its fields (its pages' `labels`), beside the ones
    every roster has."""
    names = {**LABELS, **(labels or {})}
    errors: dict[str, str] = {}
    for err in exc.errors():
        loc = [str(part) for part in err["loc"]]
        section = ".".join(loc[:2]) if loc and loc[0] == "entries" else (loc[0] if loc else "")
        field = next((part for part in reversed(loc) if not is_digits(part)), "")
        limits = (bounds or {}).get(field)
        text = french_message(err["type"], err["msg"], err.get("ctx") or {}, limits)
        label = names.get(field, field)
        message = f"{label} : {text}" if label else text
        errors.setdefault(section, message)
        errors.setdefault(".".join(loc), message)
    return errors


def error_text(exc: ValidationError, labels: Mapping[str, str] | None = None) -> str:
    """Every error once, in one line (field_errors keys each under its section and its field)."""
    return "; ".join(dict.fromkeys(field_errors(exc, labels=labels).values()))


# The names players read next to the fields every roster has; each system's pages name
# their own (`SystemPages.labels`). Characteristics keep their book codes.
LABELS = {
    "count": "Nombre",
    "points_limit": "Format (points)",
    "name": "Nom",
    "points": "Points",
}


_BOUNDS: dict[type[BaseModel], Bounds] = {}


def count_bounds(model: type[BaseModel]) -> Bounds:
    """The allowed range of a roster's `points_limit` and of its entries' `count`, as its
    JSON schema states them (a formation of 1 to 20, a fighter of 1 to 100...)."""
    if model not in _BOUNDS:
        _BOUNDS[model] = _schema_bounds(model.model_json_schema())
    return _BOUNDS[model]


def _schema_bounds(schema: dict[str, Any]) -> Bounds:
    defs = schema.get("$defs", {})

    def resolve(node: dict[str, Any]) -> dict[str, Any]:
        ref = node.get("$ref", "")
        return resolve(defs[ref.rsplit("/", 1)[-1]]) if ref else node

    def bounds(node: dict[str, Any]) -> tuple[int, int] | None:
        for option in [node, *node.get("anyOf", [])]:
            option = resolve(option)
            if "minimum" in option and "maximum" in option:
                return int(option["minimum"]), int(option["maximum"])
        return None

    found: Bounds = {}
    properties = schema.get("properties", {})
    if limit := bounds(properties.get("points_limit", {})):
        found["points_limit"] = limit
    entry = resolve(properties.get("entries", {}).get("items", {}))
    if count := bounds(entry.get("properties", {}).get("count", {})):
        found["count"] = count
    return found


def repaired(
    model: type[BaseModel], document: dict[str, Any], exc: ValidationError, stored: dict[str, Any]
) -> Any:
    """The document with each refused value replaced by the stored one, parsed, or None: the
    editor keeps showing names and costs beside the errors, and its totals are those of the
    list as saved (never of a value nobody typed, such as 101 brought down to 100)."""
    # Only the top level and the entries' own dicts change: copied shallowly (a deepcopy
    # would walk whatever a crafted form nested, issue 13).
    fixed = {
        **document,
        "entries": [
            dict(entry) if isinstance(entry, dict) else entry
            for entry in document.get("entries") or []
        ],
    }
    stored_entries = stored.get("entries") or []
    for err in exc.errors():
        loc = err["loc"]
        if loc == ("points_limit",):
            fixed["points_limit"] = stored.get("points_limit")
        elif len(loc) >= 3 and loc[0] == "entries" and isinstance(loc[1], int):
            index, field = loc[1], loc[2]
            entry = fixed["entries"][index] if index < len(fixed["entries"]) else None
            before = stored_entries[index] if index < len(stored_entries) else None
            if not isinstance(entry, dict) or not _same_unit(entry, before):
                return None
            assert isinstance(before, dict)
            if field in before:
                entry[field] = before[field]
            else:
                entry.pop(field, None)
        else:
            return None
    try:
        return model.model_validate(fixed)
    except ValidationError:
        return None


def _same_unit(entry: dict[str, Any], stored: Any) -> bool:
    """The stored entry at that row is the same unit (its saved values can stand in)."""
    return isinstance(stored, dict) and all(
        entry.get(key) == stored.get(key) for key in ("unit", "custom", "option")
    )


def my_rosters(request: Request, session: Session) -> list[Roster]:
    """The lists of this browser's carnet, newest change first."""
    return my_lists(request, session)


def roster_choices(request: Request, session: Session, system_id: str) -> list[Roster]:
    return my_lists(request, session, system_id)


FormHandler = Callable[[Request, Session, FormData], Response]


def with_form(handler: FormHandler) -> Callable[[Request, Session, FormData], Response]:
    """An endpoint that gets the posted form (read on the event loop) and runs `handler` in
    the thread pool (a plain `def` endpoint)."""

    def endpoint(request: Request, session: SessionDep, form: FormDep) -> Response:
        return handler(request, session, form)

    return endpoint

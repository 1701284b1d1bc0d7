"""The list a catalogue or a creator adds to (`Target`, from `?liste=`) and the row of a
list a creator edits in place (`EditedEntry`, from `?liste=&entree=`): found only when
this browser may edit that list and it is of the page's system."""

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlmodel import Session

from app.roster_history import entry_label
from app.store.models import Roster
from app.systems.base import AnySystem
from app.systems.inputs import is_digits
from app.web.deps import editable_or_none


@dataclass
class Target:
    """The list a catalogue or a creator adds to, when the player came from its editor."""

    roster: Roster
    name: str
    added: str = ""  # « Ajouté à « X » : 1 × Jaffa. » after an add


@dataclass(frozen=True)
class TargetQuery:
    """The query a catalogue or a creator is opened with to add to a list: `?liste=<id>`,
    and `&ajoute=1` once it has just added to it (app/web/toolkit.py sends it back so)."""

    liste: str | None = None
    ajoute: str | None = None

    @property
    def added(self) -> bool:
        return self.ajoute is not None


@dataclass(frozen=True)
class CreatorQuery(TargetQuery):
    """A creator's query: a list to add to (as a catalogue's), or the row of that list it
    edits in place (`&entree=<n>`), or the army book it adds to (`?livre=<id>`) and the
    unit of that book it edits (`&unite=<id>`)."""

    entree: str | None = None
    livre: str | None = None
    unite: str | None = None


# The pages' dependencies: the query parameters, read by FastAPI from the fields above.
TargetQueryDep = Annotated[TargetQuery, Depends()]
CreatorQueryDep = Annotated[CreatorQuery, Depends()]


@dataclass
class EditedEntry:
    """The row of a list the creator is editing (it saves over it instead of adding)."""

    roster: Roster
    index: int
    entry: dict[str, Any]

    @property
    def name(self) -> str:
        return self.roster.name or "Liste sans nom"


def edited_entry(
    system: AnySystem, request: Request, session: Session, roster_id: Any, index: Any
) -> EditedEntry | None:
    """The row `?liste=&entree=` names, when this browser may edit that list."""
    roster = editable_or_none(request, session, str(roster_id or "")[:64])
    if roster is None or roster.system != system.id or not is_digits(str(index)):
        return None
    entries = roster.document.get("entries", [])
    position = int(str(index)[:6])
    if position >= len(entries) or not isinstance(entries[position], dict):
        return None
    return EditedEntry(roster, position, entries[position])


def target_of(
    system: AnySystem,
    request: Request,
    session: Session,
    roster_id: Any,
    added: bool = False,
) -> Target | None:
    """The list `?liste=` names, when this browser holds it and it is of this system."""
    if not roster_id:
        return None
    roster = editable_or_none(request, session, str(roster_id)[:64])
    if roster is None or roster.system != system.id:
        return None
    target = Target(roster, roster.name or "Liste sans nom")
    entries = roster.document.get("entries") or []
    if added and entries and isinstance(entries[-1], dict):
        last = entries[-1]
        label = entry_label(system, roster.document, last)
        target.added = f"Ajouté à « {target.name} » : {last.get('count', 1)} × {label}."
    return target

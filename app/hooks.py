"""Where features built on rosters tell the roster core what it must know of them, so that
the core names none (issue 27: « the roster core blind to features »).

Two hooks. What a list's totals count (below), and what a feature keeps of a list besides
its rows, made again when the list comes back from the trash (`restored`: the campaign
feature's tallies of its lines, issue 29).

What a list's totals count. A feature may say that some entries leave
every total (the campaign feature: the fighters its ledger says are dead or retired); the
core, every page and the API then count the list through `counted`, and show `left_out`.
Features register at app start-up (app/main.py); with none registered every entry counts.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel
from sqlmodel import Session

from app.store.models import Roster

DocumentT = TypeVar("DocumentT", bound=BaseModel)


@dataclass(frozen=True)
class TotalsHook:
    """`left_out(session, roster, document)`: each entry's reason to leave the totals
    (a short word: « dead ») or None, for the document (a parsed one, or as stored); a
    shorter list leaves the entries past its end counted. `may_leave(document as stored)`:
    False when, from the document alone, none can leave (a cheap test that spares a query
    on the hot save path)."""

    left_out: Callable[[Session, Roster, BaseModel | Mapping[str, Any]], list[str | None]]
    may_leave: Callable[[Mapping[str, Any]], bool]


_totals: list[TotalsHook] = []


def register_totals(hook: TotalsHook) -> None:
    """A feature's say on the totals (registering the same hook twice keeps one)."""
    if hook not in _totals:
        _totals.append(hook)


def may_leave_out(document: Mapping[str, Any]) -> bool:
    """Whether any registered feature may take an entry of `document` out of its totals."""
    return any(hook.may_leave(document) for hook in _totals)


def left_out(
    session: Session, roster: Roster, document: BaseModel | Mapping[str, Any]
) -> list[str | None]:
    """Each entry's reason to leave the totals, or None for those counted (the first
    feature that names one says why). A feature that says from a document as stored that
    none of its entries can leave is not asked (its query spared)."""
    size = len(_entries(document))
    reasons: list[str | None] = [None] * size
    for hook in _totals:
        if isinstance(document, Mapping) and not hook.may_leave(document):
            continue
        for index, reason in enumerate(hook.left_out(session, roster, document)[:size]):
            reasons[index] = reasons[index] or reason
    return reasons


def counted(
    session: Session,
    roster: Roster,
    document: DocumentT,
    left: Sequence[str | None] | None = None,
) -> DocumentT:
    """What every total counts: the document without the entries a feature takes out of
    them; the document itself when none is. `left`: `left_out` when the caller has it."""
    left = left_out(session, roster, document) if left is None else left
    if not any(left):
        return document
    dumped = document.model_dump(mode="json")
    entries = dumped.get("entries", [])
    kept = [e for i, e in enumerate(entries) if i >= len(left) or not left[i]]
    return type(document).model_validate({**dumped, "entries": kept})


_restored: list[Callable[[Session, Roster], None]] = []


def register_restored(hook: Callable[[Session, Roster], None]) -> None:
    """`hook(session, roster)` runs when a list comes back from the trash, its rows back (in
    the caller's transaction, which commits)."""
    if hook not in _restored:
        _restored.append(hook)


def restored(session: Session, roster: Roster) -> None:
    """A list is back: each feature makes again what it keeps of it."""
    for hook in _restored:
        hook(session, roster)


def _entries(document: BaseModel | Mapping[str, Any]) -> Sequence[Any]:
    if isinstance(document, BaseModel):
        return getattr(document, "entries", None) or []
    return document.get("entries", []) or []

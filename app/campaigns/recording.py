"""What recording one battle line does, before anything is stored: whether the line may be
recorded at all, the gang it leads to (validated by the system's own engine), and the
ledger row it is stored as (app/campaigns/service.py `record` stores them)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from app.campaigns import ledger
from app.campaigns import states as fighters_of
from app.campaigns.ledger import FighterOutcome, LedgerError, StatChange
from app.campaigns.models import BattleIn
from app.campaigns.states import StoredLine
from app.roster_service import StaleVersion, check
from app.store.models import Roster
from app.systems.base import AnySystem
from app.systems.campaign_traits import CampaignTraits


def admissible(
    roster: Roster, expected_version: int, body: BattleIn, lines: int, most: int
) -> None:
    """LedgerError when the ledger is full or a battle takes XP away; StaleVersion when the
    roster moved on since `expected_version`."""
    if lines >= most:
        raise LedgerError("ledger_full", f"Au plus {most} lignes.", [])
    if roster.version != expected_version:
        raise StaleVersion(roster.version)
    if body.corrects is None:
        # XP is gained in a battle; only a correction takes some back (issue 26.9).
        for position, fighter in enumerate(body.fighters):
            if fighter.xp < 0:
                raise LedgerError(
                    "negative_xp",
                    "L’XP gagnée ne peut être négative (une correction le peut).",
                    ["fighters", position, "xp"],
                )


@dataclass(frozen=True)
class Applied:
    """The gang after a line: the whole document, what its totals count, each entry's
    state, where the line's fighters stand in it, and where its recruits start."""

    whole: BaseModel
    active: BaseModel
    states: list[str]
    placed: list[FighterOutcome]
    old_size: int


def applied(
    system: AnySystem,
    traits: CampaignTraits,
    document: Mapping[str, Any],
    rows: Sequence[StoredLine],
    body: BattleIn,
) -> Applied:
    """The line applied to the stored `document` after its ledger `rows`."""
    # Every entry gets its stable id now: the line names fighters by it.
    before = fighters_of.with_ids(document)
    states = fighters_of.fighter_states(rows, before)
    outcomes = [
        FighterOutcome(
            entry=f.entry,
            xp=f.xp,
            changes=tuple(StatChange(c.stat, c.by, c.cause) for c in f.changes),
            rep=f.rep,
            state=f.state,
        )
        for f in body.fighters
    ]
    after, new_states, placed = ledger.apply(
        traits,
        before,
        states,
        outcomes,
        body.recruits,
        traits.figures(system),
        corrects=body.corrects,
        apart=traits.figures_apart,
    )
    after = fighters_of.with_ids(after)
    model = system.roster_model
    # Recruits stand last; a figure taken out of an entry of several stands before them.
    old_size = len(after["entries"]) - len(body.recruits)
    try:
        whole = model.model_validate(after)
        active = model.model_validate(ledger.active_document(after, new_states))
    except ValidationError as error:
        raise refusal(error, old_size) from None
    return Applied(whole, active, new_states, placed, old_size)


def refusal(error: ValidationError, old_size: int) -> LedgerError:
    """The first problem of the document a line leads to, named in the request's terms."""
    first = error.errors()[0]
    loc = list(first["loc"])
    path: list[str | int] = ["fighters"]
    if len(loc) >= 2 and loc[0] == "entries" and isinstance(loc[1], int) and loc[1] >= old_size:
        path = ["recruits", loc[1] - old_size, *[str(p) for p in loc[2:]]]
    elif loc and loc[0] == "entries":
        path = ["fighters"]
    return LedgerError("invalid_result", f"{'.'.join(map(str, loc))}: {first['msg']}", path)


def line_row(
    system: AnySystem,
    body: BattleIn,
    after: Applied,
    stored: dict[str, Any],
    number: int,
    points: int | None,
) -> dict[str, Any]:
    """The ledger row of the line (its campaign, opponent and verdict are the caller's):
    each fighter named by his entry's stable id, count and name after the battle."""
    names = [entry.name for entry in check(system, after.whole)[0].entries]
    return {
        "number": number,
        "campaign_id": None,
        "opponent_roster_id": None,
        "date": body.date,
        "opponent": body.opponent,
        "scenario": body.scenario,
        "result": body.result,
        "points": points,
        "score": body.score,
        "notes": body.notes,
        "fighters": [
            {
                **f.model_dump(mode="json"),
                "entry": at.entry,
                "id": stored["entries"][at.entry]["id"],
                "count": int(stored["entries"][at.entry].get("count", 1)),
                "name": names[at.entry],
            }
            for f, at in zip(body.fighters, after.placed, strict=True)
        ],
        "recruits": stored["entries"][after.old_size :],
        "corrects": body.corrects,
        "verdict": None,
        "confirms_id": None,
    }

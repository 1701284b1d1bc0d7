"""A gang's ledger: what one battle line does to a roster document, and what a ledger adds
up to. Pure functions over plain documents (the roster as stored), so that every system's
own engine then validates the result as it validates any list.

What a line may change is the system's to say, through its campaign traits
(app/systems/campaign_traits.py): a line's `xp` adds to the figure's XP where the system
counts XP (the engine then gives what XP sets), `rep` sets its new Rep where it has Rep, a
change adds to one of the stats it declares (the engine applies its own minimums). How much
XP a battle gives, which injuries exist: no text says (docs/rules-notes.md, « Campaigns »):
the players enter them, nothing here invents a number.
"""

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from app.campaigns.lines import FighterOutcome as FighterOutcome
from app.campaigns.lines import Line as Line
from app.campaigns.lines import Outcome
from app.campaigns.lines import StatChange as StatChange
from app.roster_service import Refusal
from app.store.models import Counts
from app.systems.campaign_traits import CampaignTraits

Result = Literal["win", "loss", "draw"]
State = Literal["active", "recovering", "dead", "retired"]
RESULTS: tuple[str, ...] = ("win", "loss", "draw")
STATES: tuple[str, ...] = ("active", "recovering", "dead", "retired")
# A dead or retired fighter stays in the document and leaves every total (api-v1.md).
GONE: frozenset[str] = frozenset({"dead", "retired"})
OPPOSITE: dict[str, str] = {"win": "loss", "loss": "win", "draw": "draw"}


class LedgerError(Refusal, ValueError):
    """A battle line that cannot apply to this document; `path` names the offending field
    of the request (api-v1's problem `loc`), `code` is stable snake_case, the message is
    the French sentence a page shows (and the API's detail)."""

    def __init__(self, code: str, message: str, path: Sequence[str | int]) -> None:
        self.code, self.path = code, tuple(path)
        super().__init__(message)


def apply(
    traits: CampaignTraits,
    document: Mapping[str, Any],
    states: Sequence[str],
    fighters: Sequence[FighterOutcome],
    recruits: Sequence[Mapping[str, Any]] = (),
    figures: Mapping[str, Mapping[str, Any]] | None = None,
    corrects: int | None = None,
    *,
    apart: bool = False,
) -> tuple[dict[str, Any], list[str], list[FighterOutcome]]:
    """The document, the fighters' states and the line's fighters as placed in that
    document, after one battle line (copies: nothing given is changed). `states[i]` is
    entry i's state before it (entries beyond are active); `traits` the system's campaign
    traits. `figures` maps a catalogue unit id to its entry with a `custom` figure: a
    catalogue figure that gains XP or a change becomes the player's own, with the same
    numbers. `apart` (the traits' `figures_apart`): each figure of an entry of several is
    a fighter of his own; a line naming such an entry speaks of one figure, who leaves it
    for an entry of his own (count 1) placed right after it
    (docs/campaigns.md « One figure of several »)."""
    doc = copy.deepcopy(dict(document))
    entries: list[dict[str, Any]] = list(doc.get("entries", []))
    named = _named(entries, fighters, apart)
    placed, placed_states, slots = _placed(entries, states, named, apart)
    moved: list[FighterOutcome] = []
    for position, outcome in enumerate(fighters):
        at = slots[outcome.entry].pop(0)
        placed[at] = _outcome(traits, placed[at], outcome, figures or {}, ["fighters", position])
        moved.append(replace(outcome, entry=at))
    for recruit in recruits:
        placed.append(copy.deepcopy(dict(recruit)))
    doc["entries"] = placed
    after = next_states(placed_states, moved, len(placed), battle=corrects is None)
    return doc, after, moved


def _named(
    entries: Sequence[Mapping[str, Any]], fighters: Sequence[FighterOutcome], apart: bool
) -> dict[int, int]:
    """How many times the line names each entry (each figure of several at most once when
    the system keeps them apart, the entry once otherwise)."""
    named: dict[int, int] = {}
    for position, outcome in enumerate(fighters):
        where: list[str | int] = ["fighters", position]
        index = outcome.entry
        if not 0 <= index < len(entries):
            raise LedgerError(
                "no_such_fighter", f"La liste n’a pas de ligne {index}.", [*where, "entry"]
            )
        size = _figures(entries[index]) if apart else 1
        if named.get(index, 0) >= size:
            raise LedgerError(
                "fighter_twice",
                f"La ligne {index} est nommée plus de fois qu’elle n’a de figurines ({size}).",
                [*where, "entry"],
            )
        named[index] = named.get(index, 0) + 1
    return named


def _placed(
    entries: Sequence[dict[str, Any]],
    states: Sequence[str],
    named: Mapping[int, int],
    apart: bool,
) -> tuple[list[dict[str, Any]], list[str], dict[int, list[int]]]:
    """Each entry in its place, each figure taken out of it right after it: the entries,
    their states, and the places of each entry's figures the line speaks of."""
    placed: list[dict[str, Any]] = []
    placed_states: list[str] = []
    slots: dict[int, list[int]] = {}
    for index, entry in enumerate(entries):
        state = states[index] if index < len(states) else "active"
        taken = named.get(index, 0)
        size = _figures(entry)
        own: list[int] = []
        if apart and taken and size > 1:
            rest = size - taken
            if rest > 0:
                placed.append({**entry, "count": rest})
                placed_states.append(state)
            else:
                own.append(len(placed))
                placed.append({**entry, "count": 1})
                placed_states.append(state)
            single = {k: v for k, v in entry.items() if k != "id"}
            for _ in range(taken - len(own)):
                own.append(len(placed))
                placed.append({**copy.deepcopy(single), "count": 1})
                placed_states.append(state)
        else:
            own.append(len(placed))
            placed.append(dict(entry))
            placed_states.append(state)
        slots[index] = own
    return placed, placed_states, slots


def _outcome(
    traits: CampaignTraits,
    entry: dict[str, Any],
    outcome: FighterOutcome,
    figures: Mapping[str, Mapping[str, Any]],
    where: list[str | int],
) -> dict[str, Any]:
    """The entry after what the line says of its fighter (XP, Rep, changes)."""
    if outcome.xp or outcome.changes or outcome.rep is not None:
        entry = _own_figure(entry, figures, where)
    if outcome.xp:
        if not traits.has_xp:
            raise LedgerError("no_xp", "Ce système ne compte pas l’expérience.", [*where, "xp"])
        entry["custom"]["xp"] = int(entry["custom"].get("xp", 0)) + outcome.xp
    if outcome.rep is not None:
        if not traits.has_rep:
            raise LedgerError("no_rep", "Ce système n’a pas de Rep.", [*where, "rep"])
        entry["custom"]["rep"] = outcome.rep
    for number, change in enumerate(outcome.changes):
        _change(traits, entry["custom"], change, [*where, "changes", number, "stat"])
    return entry


def _figures(entry: Mapping[str, Any]) -> int:
    count = entry.get("count", 1)
    return count if isinstance(count, int) and count > 0 else 1


def next_states(
    states: Sequence[str], fighters: Sequence[FighterOutcome], size: int, *, battle: bool
) -> list[str]:
    """Each entry's state after a line. A convalescent fighter « misses the next battle »
    (issue 17; docs/rules-notes.md « Campaigns »): after the next battle he is not given a
    state in, he is active again. A correction line moves no one on."""
    now = [*states, *["active"] * (size - len(states))][:size]
    given = {f.entry: f.state for f in fighters if f.state is not None}
    for index, state in enumerate(now):
        if battle and state == "recovering" and index not in given:
            now[index] = "active"
    for index, state in given.items():
        if 0 <= index < size:
            now[index] = state
    return now


def _own_figure(
    entry: dict[str, Any], figures: Mapping[str, Mapping[str, Any]], where: list[str | int]
) -> dict[str, Any]:
    if entry.get("custom") is not None:
        return {**entry, "custom": copy.deepcopy(entry["custom"])}
    sample = figures.get(str(entry.get("unit")))
    if sample is None:
        raise LedgerError(
            "catalogue_unit",
            "Cette ligne est un profil du catalogue : ses caractéristiques ne changent pas.",
            [*where, "entry"],
        )
    own = {key: value for key, value in entry.items() if key != "unit"}
    own["custom"] = copy.deepcopy(dict(sample["custom"]))
    own["name"] = entry.get("name") or sample.get("name")
    return own


def _change(
    traits: CampaignTraits, figure: dict[str, Any], change: StatChange, path: list[str | int]
) -> None:
    typed = change.stat.strip().casefold()
    for stat in traits.figure_stats:
        # What a player reads and types for a stat kept under an internal name (« BL »).
        if typed in (stat.label.casefold(), stat.title.casefold()):
            change = replace(change, stat=stat.name)
    if change.stat in traits.profile_stats:
        profile = figure.setdefault("profile", {})
        default = traits.stat_defaults.get(change.stat, 0)
        profile[change.stat] = int(profile.get(change.stat, default)) + change.by
    elif change.stat in {stat.name for stat in traits.figure_stats}:
        default = traits.stat_defaults.get(change.stat, 0)
        figure[change.stat] = int(figure.get(change.stat, default)) + change.by
    else:
        known = [*traits.profile_stats, *(stat.told for stat in traits.figure_stats)]
        told = ", ".join(known) if known else "aucune"
        raise LedgerError(
            "unknown_stat", f"Caractéristique inconnue « {change.stat} » (connues : {told}).", path
        )


def active_document(document: Mapping[str, Any], states: Sequence[str]) -> dict[str, Any]:
    """The document without its dead and retired fighters: what every total counts."""
    entries = list(document.get("entries", []))
    kept = [e for i, e in enumerate(entries) if i >= len(states) or states[i] not in GONE]
    return {**document, "entries": kept}


def correction_of(lines: Sequence[Outcome]) -> dict[int, int]:
    """battle number → number of the latest line that corrects it."""
    by: dict[int, int] = {}
    for line in lines:
        if line.corrects is not None:
            by[line.corrects] = line.battle
    return by


class Standing(Counts):
    """A gang's line of the standings: its counts, and the gang."""

    roster: str
    name: str
    share: str | None = None

    def count(self, result: str, points: int) -> None:
        self.battles += 1
        self.wins += result == "win"
        self.draws += result == "draw"
        self.losses += result == "loss"
        self.points += points

    def add(self, other: "Standing") -> None:
        """`other`'s battles, results and points added to these."""
        self.battles += other.battles
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.points += other.points


OutcomeT = TypeVar("OutcomeT", bound=Outcome)


def effective(lines: Sequence[OutcomeT]) -> list[tuple[OutcomeT, str, int]]:
    """Each battle of a ledger (corrections folded in): the line, its result and points
    as the latest correction says (a correction without a score keeps the points)."""
    numbers = {line.battle: line for line in lines}
    latest = correction_of(lines)
    out = []
    for line in lines:
        if line.corrects is not None:
            continue
        result, points = line.result, line.points
        fix = numbers.get(latest.get(line.battle, -1))
        if fix is not None:
            result = fix.result
            points = fix.points if fix.points is not None else points
        out.append((line, result, points or 0))
    return out


def standings(
    campaign: str,
    gangs: Sequence[tuple[str, str, str | None]],
    ledgers: Mapping[str, Sequence[Line]],
    counts: Mapping[str, Sequence[int]],
) -> list[Standing]:
    """The campaign's table from its gangs' ledgers (docs/rules-notes.md, « Campaigns »):
    a battle counts when its line names the campaign; a battle between two gangs of the
    campaign counts once for each, the other's result opposite and its points the
    recorder's only; XP and fighters lost come from each gang's own lines. `gangs` is
    (roster, name, latest share); `counts[roster][i]` the figures of entry i."""
    mine = {
        roster: [ln for ln in lines if ln.campaign == campaign] for roster, lines in ledgers.items()
    }
    done = {roster: losses(lines, counts.get(roster, ())) for roster, lines in mine.items()}
    return table_of(gangs, mine, done)


@dataclass(frozen=True)
class Losses:
    """What a gang's lines did to its fighters, as the standings count it: the XP each line
    gave (by battle number), and the figures dead after them all."""

    xp: Mapping[int, int]
    fighters_lost: int
    dead: int = 0  # entries dead: their figures are the list's (it may change them)


def losses(lines: Sequence[Line], sizes: Sequence[int]) -> Losses:
    """`lines`: a gang's lines of one campaign, in order; `sizes[i]`: the figures of entry
    i as the list has them now (an entry no longer in it counts as its line recorded it).
    Depends on the lines' fighters and the list only, never on verdicts or voids: what a
    gang's version names (app/campaigns/views.py remembers it so)."""
    states: dict[int, str] = {}
    recorded: dict[int, int] = {}  # figures of entries no longer in the list
    xp: dict[int, int] = {}
    for line in lines:
        xp[line.battle] = sum(f.xp for f in line.fighters)
        for fighter in line.fighters:
            if fighter.state is not None:
                states[fighter.entry] = fighter.state
            if fighter.count is not None:
                recorded[fighter.entry] = fighter.count
    dead = [i for i, s in states.items() if s == "dead"]
    lost = sum(sizes[i] if i < len(sizes) else recorded.get(i, 1) for i in dead)
    return Losses(xp, lost, len(dead))


def tally(recorder: str, lines: Sequence[Outcome]) -> dict[str, Standing]:
    """What one gang's lines of a campaign (`lines`: their results, verdicts and voids) count
    in its standings, for itself and for each gang they name: a counted battle between two
    gangs counts once for each, the other's result opposite and its points the recorder's
    only (docs/rules-notes.md, « Campaigns »)."""
    out = {recorder: Standing(roster=recorder, name="")}
    for line, result, points in effective(lines):
        other = line.opponent_roster
        named = other is not None and other != recorder
        if named:  # every gang named has its line, counted or not (a tally only grows)
            out.setdefault(str(other), Standing(roster=str(other), name=""))
        if line.counted:
            out[recorder].count(result, points)
            if named:
                out[str(other)].count(OPPOSITE[result], 0)
    return out


def ranked(table: Iterable[Standing]) -> list[Standing]:
    """The standings' order: wins, draws, points, then the name."""
    return sorted(table, key=lambda s: (-s.wins, -s.draws, -s.points, s.name.casefold(), s.roster))


def table_of(
    gangs: Sequence[tuple[str, str, str | None]],
    ledgers: Mapping[str, Sequence[Outcome]],
    done: Mapping[str, Losses],
) -> list[Standing]:
    """The table from each gang's lines of the campaign (their results, verdicts and voids:
    `ledgers`) and what they did to its fighters (`done`), ranked: wins, draws, points."""
    table = {
        roster: Standing(roster=roster, name=name, share=share) for roster, name, share in gangs
    }
    for roster, lines in ledgers.items():
        if roster not in table:
            continue
        for subject, counted in tally(roster, lines).items():
            if subject in table:
                table[subject].add(counted)
        gang = done.get(roster, Losses({}, 0))
        table[roster].xp += sum(gang.xp.get(line.battle, 0) for line in lines if not line.voided)
        table[roster].fighters_lost = gang.fighters_lost
    return ranked(table.values())


def states_after(lines: Sequence[Line], size: int) -> list[str]:
    """Each entry's state after the whole ledger (entries beyond are active)."""
    states: list[str] = []
    for line in lines:
        states = next_states(states, line.fighters, size, battle=line.corrects is None)
    return [*states, *["active"] * (size - len(states))]

"""What every export writes the same way: the totals line, the per-entry cost, clean text."""

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple, Protocol

from app.systems.base import Amount, Budget, Issue, RosterSummary, SummaryLine, Total

_SPACES = re.compile(r"\s+")
# Rule references such as "(L155-156)" or ", L157-162)" are for the rules' readers.
_REFERENCES = re.compile(
    r"\s*\(L\d+(?:[-–]\d+)?(?:\s*[,;]\s*L\d+(?:[-–]\d+)?)*\)|,\s*L\d+(?:[-–]\d+)?(?=\))"
)
HARD_BREAK = "\\"


def without_references(text: str) -> str:
    """Text for a forum post: the rule-line references are for the rules' readers."""
    return _REFERENCES.sub("", text)


def one_line(text: str) -> str:
    """User text on one line: control characters and newlines become single spaces."""
    return _SPACES.sub(" ", "".join(ch if ch.isprintable() else " " for ch in text)).strip()


def amount(value: Amount) -> str:
    """6, 6.5 (never 6.0): budgets in halves are exact."""
    return str(int(value)) if float(value).is_integer() else str(value)


def budget_text(budget: Budget) -> str:
    """Points alone read as players write them: "203 / 200 points"."""
    if budget.limit is None:
        return f"{amount(budget.used)} {budget.label}"
    return f"{amount(budget.used)} / {amount(budget.limit)} {budget.label}"


def budget_pair(budget: Budget) -> str:
    """Among several budgets, each as Infinity players post them: "SWC 5.5/6"."""
    limit = f"/{amount(budget.limit)}" if budget.limit is not None else ""
    return f"{budget.label} {amount(budget.used)}{limit}"


class Totalled(Protocol):
    """What a totals line reads: a summary's, or a play sheet's, budgets and totals."""

    @property
    def budgets(self) -> Sequence[Budget]: ...

    @property
    def totals(self) -> Sequence[Total]: ...


def total_text(summary: Totalled) -> str:
    """The budgets ("203 / 200 points"; "SWC 5.5/6 | points 300/300"), or for a system
    without points its own totals ("Figurines : 7, Rep totale : 27")."""
    if len(summary.budgets) == 1:
        return budget_text(summary.budgets[0])
    if summary.budgets:
        return " | ".join(budget_pair(budget) for budget in summary.budgets)
    return ", ".join(f"{total.label} : {total.value}" for total in summary.totals)


def cost_text(line: SummaryLine, summary: RosterSummary) -> str:
    """What an entry costs, or nothing in a system without points."""
    if not summary.has_points:
        return ""
    if line.count == 1:
        return f"{line.points_each} pts"
    return f"{line.points_each} pts chacun, {line.count * line.points_each} pts"


def validity_text(summary: RosterSummary) -> str | None:
    """An invalid list says so before anything else is read."""
    return None if summary.valid else "Liste non valide"


def issue_prefix(severity: str) -> str:
    return "Erreur" if severity == "error" else "Attention"


def issue_text(issue: Issue) -> str:
    """An issue as a forum post reads it: "Erreur : ...", without rule-line references."""
    return f"{issue_prefix(issue.severity)} : {without_references(issue.message)}"


# Where entries come from, by entry index: (« Marines de Kessel, v3 », the book's link).
Origins = Mapping[int, tuple[str, str]]


def origin_of(line: SummaryLine, origins: Origins | None, seen: set[int]) -> tuple[str, str] | None:
    """The origin to write under `line`: once per entry (an entry may show as several
    lines), on its first line. `seen` holds the entries already written."""
    if not origins or line.entry is None or line.entry in seen or line.entry not in origins:
        return None
    seen.add(line.entry)
    return origins[line.entry]


def origin_text(label: str) -> str:
    return f"Livre : {label}"


class Walked(NamedTuple):
    """One line as every export walks it."""

    opens: str | None  # the group this line opens, if it opens one
    line: SummaryLine
    cost: str  # cost_text, "" when the line shows none
    origin: tuple[str, str] | None  # (« Livre : … », the link), on an entry's first line


def walk(summary: RosterSummary, origins: Origins | None) -> Iterator[Walked]:
    """The summary's lines in order, each with the group it opens, its cost and its origin."""
    group: str | None = None
    seen: set[int] = set()
    for line in summary.lines:
        opens = line.group if line.group != group and line.group is not None else None
        group = line.group
        origin = origin_of(line, origins, seen)
        told = (origin_text(origin[0]), origin[1]) if origin else None
        yield Walked(opens, line, cost_text(line, summary), told)

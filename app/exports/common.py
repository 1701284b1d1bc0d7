"""What every export writes the same way: the total line, the per-entry cost, clean text."""

import re

from app.systems.base import RosterSummary, SummaryLine

_SPACES = re.compile(r"\s+")


def one_line(text: str) -> str:
    """User text on one line: control characters and newlines become single spaces."""
    return _SPACES.sub(" ", "".join(ch if ch.isprintable() else " " for ch in text)).strip()


def total_text(summary: RosterSummary) -> str:
    if summary.points_limit is None:
        return f"{summary.points} points"
    return f"{summary.points} / {summary.points_limit} points"


def cost_text(line: SummaryLine) -> str:
    if line.count == 1:
        return f"{line.points_each} pts"
    return f"{line.points_each} pts chacun, {line.count * line.points_each} pts"


def issue_prefix(severity: str) -> str:
    return "Erreur" if severity == "error" else "Attention"

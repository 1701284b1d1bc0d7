"""The tokens every lexer of app/imports/ makes: one per input line, its part in a list
as an export printed it (app/exports/ writes the same shapes)."""

import re
from dataclasses import dataclass
from typing import Literal

Format = Literal["bbcode", "markdown", "text", "typed"]
SHARE_TEXT = "Voir cette liste sur Caserne"
INVALID = "Liste non valide"
ISSUE = re.compile(r"^(?:Erreur|Attention) : ")
HOUSE_RULE = "Règle maison : "
ORIGIN = "Livre : "
COST = r"(\d{1,6}) pts(?: chacun, (\d{1,7}) pts)?"
URL = re.compile(r"https?://\S+")


@dataclass
class Token:
    """One line as a format's lexer reads it."""

    kind: Literal[
        "blank", "name", "system", "total", "invalid", "group", "head", "detail", "origin",
        "house_rule", "issue", "note", "link",
    ]  # fmt: skip
    text: str = ""
    count: int = 0
    points: int | None = None  # a head's cost of one, an extra's cost
    total: int | None = None  # a head's cost of all
    link: str = ""
    system: str = ""  # the system's name, on a BBCode first line


def cost_of(match: re.Match[str], first: int) -> tuple[int | None, int | None]:
    """(cost of one, cost of all) from a head's « N pts » or « N pts chacun, M pts »."""
    one, every = match.group(first), match.group(first + 1)
    if one is None:
        return None, None
    return int(one), int(every) if every is not None else None

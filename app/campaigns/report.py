"""« Rapport de bataille »: one line of a gang's ledger as a BBCode post for the forum.
User text can never open or close a tag (app/exports/bbcode.escape)."""

import functools
from collections.abc import Callable
from datetime import date
from typing import Any

from babel.dates import format_date

from app.dates import LOCALE
from app.exports.bbcode import escape

RESULTS = {"win": "Victoire", "loss": "Défaite", "draw": "Match nul"}
STATES = {"active": "de retour", "recovering": "convalescent", "dead": "mort", "retired": "retiré"}


@functools.lru_cache(maxsize=4096)
def french_day(iso: str) -> str:
    """« 1er décembre 2026 » of an ISO date (a battle's date has no time)."""
    day = date.fromisoformat(iso)
    first = "1er" if day.day == 1 else str(day.day)
    return f"{first} {format_date(day, 'MMMM y', locale=LOCALE)}"


def plain(text: str) -> str:
    return text


def fighter_text(fighter: dict[str, Any], escape: Callable[[str], str] = plain) -> str:
    """« +20 XP, CT −1 (Œil crevé), mort »: as typed for a page (whose template escapes
    HTML), or with `escape` for a post (brackets can open no BBCode tag)."""
    parts = []
    if fighter.get("xp"):
        parts.append(f"{fighter['xp']:+d} XP".replace("-", "−"))
    for change in fighter.get("changes", []):
        by = f"{change['by']:+d}".replace("-", "−")
        cause = f" ({escape(change['cause'])})" if change.get("cause") else ""
        parts.append(f"{escape(change['stat'])} {by}{cause}")
    if fighter.get("rep") is not None:
        parts.append(f"Rep {fighter['rep']}")
    if fighter.get("state"):
        parts.append(STATES[fighter["state"]])
    return ", ".join(parts) or "rien à signaler"


def battle_bbcode(gang: str, line: dict[str, Any], url: str) -> str:
    """The post; `line` is a ledger line as list_battles gives it, `url` the gang's page."""
    title = f"Bataille {line['battle']}" if not line.get("corrects") else "Correction"
    out = [f"[b]Rapport de bataille — {escape(gang)}[/b]"]
    head = [title, french_day(line["date"])]
    if line.get("opponent"):
        head.append(f"contre {escape(line['opponent'])}")
    head.append(f"[b]{RESULTS[line['result']]}[/b]")
    out.append(" — ".join(head))
    if line.get("corrects"):
        out.append(f"[i]Corrige la bataille {line['corrects']}.[/i]")
    if line.get("scenario"):
        out.append(f"Scénario : {escape(line['scenario'])}")
    if line.get("points") is not None:
        out.append(f"Score : {line['points']} pts")
    if line.get("fighters"):
        out.append("[list]")
        out += [
            f"[*][b]{escape(f['name'])}[/b] : {fighter_text(f, escape)}" for f in line["fighters"]
        ]
        out.append("[/list]")
    if line.get("recruits"):
        out.append("Recrues : " + ", ".join(escape(name) for name in line["recruits"]))
    if line.get("notes"):
        out.append(f"[quote]{escape(line['notes'])}[/quote]")
    out.append("")
    out.append(f"[url={url}]Le gang sur Caserne[/url]")
    return "\n".join(out) + "\n"

"""BBCode for phpBB-style forums. User text can never open or close a tag."""

from app.exports.common import Origins, issue_text, one_line, total_text, validity_text, walk
from app.systems.base import RosterSummary

INVALID_COLOUR = "#c0392b"


def escape(text: str) -> str:
    """phpBB has no escape for '[': swap brackets for their full-width look-alikes."""
    return one_line(text).replace("[", "［").replace("]", "］")


def to_bbcode(summary: RosterSummary, url: str, origins: Origins | None = None) -> str:
    out = [f"[b]{escape(summary.name)}[/b] — {escape(summary.system_name)}"]
    out.append(f"[b]Total : {total_text(summary)}[/b]")
    if invalid := validity_text(summary):
        out.append(f"[color={INVALID_COLOUR}][b]{invalid}[/b][/color]")
    out.append("")
    for opens, line, cost, origin in walk(summary, origins):
        if opens is not None:
            out.append(f"[u]{escape(opens)}[/u]")
        out.append(f"[b]{line.count} × {escape(line.title)}[/b]" + (f" — {cost}" if cost else ""))
        badges = ", ".join(
            f"[color={b.colour}]{escape(b.text)}[/color]" if b.colour else escape(b.text)
            for b in line.badges
        )
        details = [escape(detail) for detail in line.details if detail]
        if badges:
            details.append(badges)
        if details:
            out.append(" — ".join(details))
        if origin:
            label, link = escape(origin[0]), origin[1]
            out.append(f"[i]{label}[/i] — [url={link}]{escape(link)}[/url]")
        out += [f"[i]Règle maison : {escape(rule)}[/i]" for rule in line.house_rules]
        out += [f"[i]{escape(issue_text(i))}[/i]" for i in line.issues]
    for extra in summary.extras:
        out.append(f"[b]{escape(extra.label)}[/b] — {extra.points} pts")
    for issue in summary.issues:
        out.append(f"[i]{escape(issue_text(issue))}[/i]")
    for note in summary.notes:
        out.append(f"[size=85]{escape(note)}[/size]")
    out.append("")
    out.append(f"[url={url}]Voir cette liste sur Caserne[/url]")
    return "\n".join(out) + "\n"

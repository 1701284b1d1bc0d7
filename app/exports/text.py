"""Plain text, for e-mail or a chat."""

from app.exports.common import Origins, issue_text, one_line, total_text, validity_text, walk
from app.systems.base import RosterSummary


def to_text(summary: RosterSummary, url: str, origins: Origins | None = None) -> str:
    out = [
        one_line(summary.name),
        one_line(summary.system_name),
        f"Total : {total_text(summary)}",
    ]
    if invalid := validity_text(summary):
        out.append(invalid)
    out.append("")
    for opens, line, cost, origin in walk(summary, origins):
        if opens is not None:
            out += ["", one_line(opens) + " :"]
        out.append(f"{line.count} x {one_line(line.title)}" + (f" - {cost}" if cost else ""))
        details = [one_line(d) for d in line.details if d] + [b.text for b in line.badges]
        if details:
            out.append("    " + " - ".join(details))
        if origin:
            out.append(f"    {one_line(origin[0])} - {origin[1]}")
        out += [f"    Règle maison : {one_line(rule)}" for rule in line.house_rules]
        out += [f"    {one_line(issue_text(i))}" for i in line.issues]
    out += [f"{one_line(extra.label)} - {extra.points} pts" for extra in summary.extras]
    out += [one_line(issue_text(i)) for i in summary.issues]
    out += [one_line(note) for note in summary.notes]
    out += ["", url]
    return "\n".join(out) + "\n"

"""Markdown (CommonMark): user text is escaped, so it cannot add links, HTML or emphasis."""

import re

from app.exports.common import cost_text, issue_prefix, one_line, total_text, validity_text
from app.systems.base import RosterSummary

# Every ASCII punctuation character CommonMark may give a meaning to is backslash-escaped:
# "\<" cannot open an HTML tag, "\[" cannot open a link, "\&" cannot start an entity.
_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>&])")


def escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", one_line(text))


def to_markdown(summary: RosterSummary, url: str) -> str:
    out = [f"# {escape(summary.name)}", "", f"*{escape(summary.system_name)}*", ""]
    out.append(f"**Total : {total_text(summary)}**")
    if invalid := validity_text(summary):
        out += ["", f"**{invalid}**"]
    out.append("")
    group: str | None = None
    for line in summary.lines:
        if line.group != group and line.group is not None:
            out += ["", f"## {escape(line.group)}", ""]
        group = line.group
        cost = cost_text(line, summary)
        out.append(f"- **{line.count} × {escape(line.name)}**" + (f" — {cost}" if cost else ""))
        details = [escape(d) for d in line.details if d] + [escape(b.text) for b in line.badges]
        if details:
            out.append(f"  {' — '.join(details)}")
        out += [f"  *Règle maison : {escape(rule)}*" for rule in line.house_rules]
        out += [f"  *{issue_prefix(i.severity)} : {escape(i.message)}*" for i in line.issues]
    if summary.extras:
        out.append("")
        out += [f"- **{escape(extra.label)}** — {extra.points} pts" for extra in summary.extras]
    if summary.issues:
        out.append("")
        out += [f"> {issue_prefix(i.severity)} : {escape(i.message)}" for i in summary.issues]
    if summary.notes:
        out.append("")
        out += [f"*{escape(note)}*" for note in summary.notes]
    out += ["", f"[Voir cette liste sur Caserne]({url})"]
    return "\n".join(out) + "\n"

"""Markdown (CommonMark): user text is escaped, so it cannot add links, HTML or emphasis.

Only what CommonMark may read as markup is escaped, where it may: "SG-1" stays "SG-1",
"Dices & Colors" stays as written. Lines inside an entry end with a hard line break."""

import re

from app.exports.common import Origins, issue_text, one_line, total_text, validity_text, walk
from app.systems.base import RosterSummary

# Anywhere in a line: code spans, emphasis, links and images, HTML and autolinks (both
# angle brackets, so that no raw tag reaches a forum's filter), GFM strikethrough and tables.
_INLINE = re.compile(r"([\\`*_\[\]<>~|])")
# "&amp;", "&#33;": an entity reference would be decoded.
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
# At the start of a line: headings, block quotes, list items, thematic breaks, setext
# underlines, indented code is avoided by `one_line` (no leading spaces).
_LINE_START = re.compile(r"^(#|>|[-+=]|(\d{1,9})([.)]))")
# A heading's closing sequence: "# SG #" would lose its last "#".
_CLOSING_HASHES = re.compile(r"(\s)(#+)$")
HARD_BREAK = "\\"


def escape(text: str, *, line_start: bool = False) -> str:
    """`text` as literal Markdown; `line_start` when it opens a line (block syntax)."""
    escaped = _ENTITY.sub(r"\\&", _INLINE.sub(r"\\\1", one_line(text)))
    if line_start:
        escaped = _LINE_START.sub(
            lambda m: f"{m.group(2)}\\{m.group(3)}" if m.group(2) else f"\\{m.group(1)}", escaped
        )
    return _CLOSING_HASHES.sub(r"\1\\\2", escaped)


def _entry(head: str, more: list[str]) -> list[str]:
    """A list item: its first line, then each further line after a hard line break."""
    lines = [head, *(f"  {line}" for line in more)]
    return [line + HARD_BREAK for line in lines[:-1]] + [lines[-1]]


def to_markdown(summary: RosterSummary, url: str, origins: Origins | None = None) -> str:
    out = [f"# {escape(summary.name)}", "", f"*{escape(summary.system_name)}*", ""]
    out.append(f"**Total : {total_text(summary)}**")
    if invalid := validity_text(summary):
        out += ["", f"**{invalid}**"]
    out.append("")
    for opens, line, cost, origin in walk(summary, origins):
        if opens is not None:
            out += ["", f"## {escape(opens)}", ""]
        head = f"- **{line.count} × {escape(line.title)}**" + (f" — {cost}" if cost else "")
        more = []
        details = [d for d in line.details if d] + [b.text for b in line.badges]
        if details:
            more.append(escape(" — ".join(details), line_start=True))
        if origin:
            more.append(f"{escape(origin[0], line_start=True)} — <{origin[1]}>")
        more += [f"*Règle maison : {escape(rule)}*" for rule in line.house_rules]
        more += [f"*{escape(issue_text(i))}*" for i in line.issues]
        out += _entry(head, more)
    if summary.extras:
        out.append("")
        out += [f"- **{escape(extra.label)}** — {extra.points} pts" for extra in summary.extras]
    if summary.issues:
        out.append("")
        out += [f"> {escape(issue_text(i))}" for i in summary.issues]
    if summary.notes:
        out.append("")
        out += [f"*{escape(note)}*" for note in summary.notes]
    out += ["", f"[Voir cette liste sur Caserne]({url})"]
    return "\n".join(out) + "\n"

"""Caserne's BBCode and Markdown exports read line by line (app/exports/bbcode.py and
markdown.py write them): each line matched once by anchored patterns."""

import re
from collections.abc import Callable, Mapping, Sequence

from app.imports.tokens import COST, HOUSE_RULE, INVALID, SHARE_TEXT, Token, cost_of

# --- the formats' own syntax --------------------------------------------------------------

_BB_TAGS = re.compile(r"\[/?(?:color|size|b|i|u|s)(?:=[^\]]{0,40})?\]")
_MD_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def bb_plain(text: str) -> str:
    """BBCode text without its tags, brackets as the export wrote them back."""
    return _BB_TAGS.sub("", text).replace("［", "[").replace("］", "]").strip()


def md_plain(text: str) -> str:
    """Markdown text without its escapes."""
    return _MD_ESCAPED.sub(r"\1", text).strip()


BB = {
    "first": re.compile(r"^\[b\](.*)\[/b\] — (.*)$"),
    "total": re.compile(r"^\[b\]Total : (.*)\[/b\]$"),
    "group": re.compile(r"^\[u\](.*)\[/u\]$"),
    "head": re.compile(rf"^\[b\](\d{{1,4}}) × (.*)\[/b\](?: — {COST})?$"),
    "extra": re.compile(r"^\[b\](.*)\[/b\] — (-?\d{1,6}) pts$"),
    "origin": re.compile(r"^\[i\]Livre : (.*)\[/i\] — \[url=([^\]]*)\].*\[/url\]$"),
    "italic": re.compile(r"^\[i\](.*)\[/i\]$"),
    "note": re.compile(r"^\[size=85\](.*)\[/size\]$"),
    "link": re.compile(rf"^\[url=([^\]]*)\]{SHARE_TEXT}\[/url\]$"),
}


def _marked(
    line: str, patterns: Mapping[str, re.Pattern[str]], plain: Callable[[str], str]
) -> Token | None:
    """A group's heading, an entry's head or an extra, as BBCode and Markdown mark them."""
    if found := patterns["group"].match(line):
        return Token("group", plain(found[1]))
    if found := patterns["head"].match(line):
        points, total = cost_of(found, 3)
        title = plain(found[2])
        return Token("head", title, count=int(found[1]), points=points, total=total)
    if found := patterns["extra"].match(line):
        return Token("note", plain(found[1]), points=int(found[2]))
    return None


def lex_bbcode(lines: Sequence[str]) -> list[Token]:
    tokens: list[Token] = []
    for number, line in enumerate(lines):
        found = None
        if not line.strip():
            tokens.append(Token("blank"))
        elif not any(t.kind != "blank" for t in tokens) and (found := BB["first"].match(line)):
            tokens.append(Token("name", bb_plain(found[1]), system=bb_plain(found[2])))
        elif found := BB["total"].match(line):
            tokens.append(Token("total", found[1]))
        elif INVALID in line and bb_plain(line) == INVALID:
            tokens.append(Token("invalid"))
        elif marked := _marked(line, BB, bb_plain):
            tokens.append(marked)
        elif found := BB["origin"].match(line):
            tokens.append(Token("origin", bb_plain(found[1]), link=found[2]))
        elif found := BB["italic"].match(line):
            tokens.append(_italic(bb_plain(found[1])))
        elif found := BB["note"].match(line):
            tokens.append(Token("note", bb_plain(found[1])))
        elif found := BB["link"].match(line):
            tokens.append(Token("link", link=found[1]))
        elif number and tokens and tokens[-1].kind == "head":
            tokens.append(Token("detail", bb_plain(line)))
        else:
            tokens.append(Token("note", bb_plain(line)))
    return tokens


def _italic(text: str) -> Token:
    """An italic line of an export: a house rule, or an issue."""
    if text.startswith(HOUSE_RULE):
        return Token("house_rule", text.removeprefix(HOUSE_RULE))
    return Token("issue", text)


MD = {
    "name": re.compile(r"^# (.*)$"),
    "system": re.compile(r"^\*([^*].*)\*$"),
    "total": re.compile(r"^\*\*Total : (.*)\*\*$"),
    "group": re.compile(r"^## (.*)$"),
    "head": re.compile(rf"^- \*\*(\d{{1,4}}) × (.*)\*\*(?: — {COST})?$"),
    "extra": re.compile(r"^- \*\*(.*)\*\* — (-?\d{1,6}) pts$"),
    "origin": re.compile(r"^Livre : (.*) — <([^>]*)>$"),
    "italic": re.compile(r"^\*(.*)\*$"),
    "link": re.compile(rf"^\[{SHARE_TEXT}\]\((.*)\)$"),
}


def hard_break(line: str) -> str:
    """A Markdown line without its hard line break (an odd run of trailing backslashes)."""
    trailing = len(line) - len(line.rstrip("\\"))
    return line[:-1] if trailing % 2 else line


def lex_markdown(lines: Sequence[str]) -> list[Token]:
    tokens: list[Token] = []
    opening: list[str] = []  # the kinds of the first lines that held something
    for raw in lines:
        line = hard_break(raw.rstrip())
        found = None
        first, second = not opening, opening == ["name"]
        in_entry = bool(tokens) and tokens[-1].kind in ("head", "detail", "origin", "house_rule")
        in_entry = in_entry or (bool(tokens) and tokens[-1].kind == "issue" and line[:2] == "  ")
        if not line.strip():
            tokens.append(Token("blank"))
        elif first and (found := MD["name"].match(line)):
            tokens.append(Token("name", md_plain(found[1])))
        elif second and (found := MD["system"].match(line)):
            tokens.append(Token("system", md_plain(found[1])))
        elif found := MD["total"].match(line):
            tokens.append(Token("total", found[1]))
        elif line == f"**{INVALID}**":
            tokens.append(Token("invalid"))
        elif marked := _marked(line, MD, md_plain):
            tokens.append(marked)
        elif in_entry and line.startswith("  "):
            tokens.append(_md_entry_line(line.strip()))
        elif line.startswith("> "):
            tokens.append(Token("issue", md_plain(line[2:])))
        elif found := MD["link"].match(line):
            tokens.append(Token("link", link=found[1]))
        elif found := MD["italic"].match(line):
            tokens.append(Token("note", md_plain(found[1])))
        else:
            tokens.append(Token("note", md_plain(line)))
        if line.strip() and len(opening) < 2:
            opening.append(tokens[-1].kind)
    return tokens


def _md_entry_line(line: str) -> Token:
    if found := MD["origin"].match(line):
        return Token("origin", md_plain(found[1]), link=found[2])
    if found := MD["italic"].match(line):
        return _italic(md_plain(found[1]))
    return Token("detail", md_plain(line))

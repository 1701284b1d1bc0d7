"""Caserne's text export, and lines a player typed, read line by line (app/exports/text.py
writes the export): « 3 x Jaffa », « Jaffa x3 », « 2 Jaffa (30 pts) »."""

import re
from collections.abc import Sequence

from app.imports.tokens import COST, HOUSE_RULE, INVALID, ISSUE, ORIGIN, URL, Token, cost_of

# --- text, and lines a player typed ---------------------------------------------------------

_TEXT_HEAD = re.compile(rf"^(\d{{1,4}}) x (.+?)(?: - {COST})?$")
_TEXT_EXTRA = re.compile(r"^(.+) - (-?\d{1,6}) pts$")
_BULLET = re.compile(r"^[\s\-*•·+>–—]+")
_ANY_TAG = re.compile(r"\[/?[a-z*]{1,10}(?:=[^\]]{0,200})?\]", re.IGNORECASE)
_EMPHASIS = re.compile(r"\*\*|__|^#+\s+")
# « (30 pts) », « - 18 pts chacun, 144 pts », « 50pts », « [25 points] »
_TYPED_COST = re.compile(
    r"[\s,;:–—-]*[(\[]?\s*(\d{1,6})\s*(?:pts?|points?)\.?(\s*chacun)?"
    r"(?:\s*,\s*(\d{1,7})\s*(?:pts?|points?))?\s*[)\]]?",
    re.IGNORECASE,
)
# « un juve », « deux gangers »: counts in words, up to ten.
NUMBERS = {"un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6}
NUMBERS |= {"sept": 7, "huit": 8, "neuf": 9, "dix": 10}
_WORD_COUNT = re.compile(r"^(" + "|".join(NUMBERS) + r")\s+(.+)$", re.IGNORECASE)
_TYPED_COUNTS = (
    re.compile(r"^(\d{1,4})\s*[x×*]\s*(.+)$", re.IGNORECASE),  # 3 x Jaffa, 3x Jaffa
    re.compile(r"^[x×]\s*(\d{1,4})\s+(.+)$", re.IGNORECASE),  # x3 Jaffa
    re.compile(r"^(\d{1,4})\s+(.+)$"),  # 3 Jaffa
)
_TYPED_COUNT_AFTER = re.compile(r"^(.+?)[\s:]*[(\[]?\s*[x×]\s*(\d{1,4})\s*[)\]]?$", re.IGNORECASE)


# « Total : 200 pts », « Format 400 points »: what the list spends or is built to.
_TYPED_TOTAL = re.compile(r"^(?:total|format|budget|points?|swc)\b[^a-z]*\d", re.IGNORECASE)


# A line a forum post sets apart as a heading: wholly bold or underlined, or a Markdown title.
_TYPED_HEADING = re.compile(
    r"^(?:\[(b|u)\].*\[/\1\]|\*\*[^*].*\*\*|__[^_].*__|#{1,6}\s.*)$", re.IGNORECASE
)


def typed_plain(line: str) -> str:
    """A typed line without forum markup (tags, emphasis, bullets)."""
    text = _EMPHASIS.sub("", _ANY_TAG.sub("", line)).replace("［", "[").replace("］", "]")
    return _BULLET.sub("", text).strip()


def typed_entry(line: str) -> Token | None:
    """A line a player typed, read as « count × name (cost) » when it says a count:
    « 3 x Jaffa », « 3x Jaffa », « Jaffa x3 », « Jaffa (x3) », « x3 Jaffa », « 2 Jaffa (30
    pts) » (a head); as a name and its cost when it says a cost alone: « Teal'c - 77 pts »
    (a note with its points: a name of the catalogue, the list's name, or a hidden move).
    None when it says neither."""
    text = typed_plain(line)
    points = total = None
    costs = list(_TYPED_COST.finditer(text))
    if costs:
        cost = costs[-1]
        text = (text[: cost.start()] + " " + text[cost.end() :]).strip(" -–—:,;")
        if cost[3] is not None:
            points, total = int(cost[1]), int(cost[3])
        elif cost[2]:
            points = int(cost[1])
        else:
            total = int(cost[1])
    for pattern in _TYPED_COUNTS:
        if found := pattern.match(text):
            return _typed_head(found[2], int(found[1]), points, total)
    if found := _TYPED_COUNT_AFTER.match(text):
        return _typed_head(found[1], int(found[2]), points, total)
    if found := _WORD_COUNT.match(text):
        return _typed_head(found[2], NUMBERS[found[1].lower()], points, total)
    name = text.strip(" -–—:,;.")
    if (points is not None or total is not None) and any(ch.isalpha() for ch in name):
        return Token("note", name, points=points if points is not None else total)
    return None


def _typed_head(name: str, count: int, points: int | None, total: int | None) -> Token | None:
    name = name.strip(" -–—:,;.")
    if not any(ch.isalpha() for ch in name):
        return None
    if total is not None and points is None and count == 1:
        points = total
    return Token("head", name, count=count, points=points, total=total)


def lex_text(lines: Sequence[str], export: bool) -> list[Token]:
    """Caserne's text export (`export`), or lines a player typed, read the same way: an
    indented line after an entry is one of its details."""
    tokens: list[Token] = []
    header = 0  # the export's first lines: name, system, total
    for line in lines:
        stripped = line.strip()
        indented = line[:1] in (" ", "\t") and stripped
        in_entry = bool(tokens) and tokens[-1].kind in ("head", "detail", "origin", "house_rule")
        in_entry = in_entry or (bool(tokens) and tokens[-1].kind == "issue" and bool(indented))
        found = None
        if not stripped or not any(ch.isalnum() for ch in stripped):
            tokens.append(Token("blank"))
        elif export and header < 3:
            text = stripped.removeprefix("Total : ") if header == 2 else stripped
            tokens.append(Token(("name", "system", "total")[header], text))
            header += 1
        elif stripped == INVALID:
            tokens.append(Token("invalid"))
        elif indented and in_entry:
            tokens.append(_text_entry_line(stripped))
        elif export and (found := _TEXT_HEAD.match(stripped)):
            points, total = cost_of(found, 3)
            tokens.append(Token("head", found[2], count=int(found[1]), points=points, total=total))
        elif ISSUE.match(stripped):
            tokens.append(Token("issue", stripped))
        elif URL.fullmatch(stripped):
            tokens.append(Token("link", link=stripped))
        elif not export and _TYPED_TOTAL.match(typed_plain(stripped)):
            tokens.append(Token("total", typed_plain(stripped)))
        elif not export and (head := typed_entry(stripped)) is not None and head.kind == "head":
            tokens.append(head)
        elif not export and _TYPED_HEADING.match(stripped):
            tokens.append(Token("group", typed_plain(stripped).rstrip(" :")))
        elif not export and head is not None:
            tokens.append(head)
        elif (plain := stripped if export else typed_plain(stripped)).endswith(":"):
            tokens.append(Token("group", plain.rstrip(" :")))
        elif export and (found := _TEXT_EXTRA.match(stripped)):
            tokens.append(Token("note", found[1], points=int(found[2])))
        else:
            tokens.append(Token("note", stripped if export else typed_plain(stripped)))
    return tokens


def _text_entry_line(line: str) -> Token:
    if line.startswith(HOUSE_RULE):
        return Token("house_rule", line.removeprefix(HOUSE_RULE))
    if line.startswith(ORIGIN) and " - " in line:
        label, _, link = line.removeprefix(ORIGIN).rpartition(" - ")
        return Token("origin", label, link=link)
    if ISSUE.match(line):
        return Token("issue", line)
    return Token("detail", line)

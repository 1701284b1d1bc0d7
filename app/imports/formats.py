"""A pasted list's shape: which export wrote it (BBCode, Markdown, text) or whether a player
typed it, and every line's part in it (app/exports/ writes the same shapes).

Pure and linear: each line is matched once by anchored patterns; nothing here knows a
system (the system's reader, app/systems/import_traits.py, reads the blocks)."""

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from app.imports.marked import BB, MD, lex_bbcode, lex_markdown
from app.imports.tokens import ORIGIN, Format, Token
from app.imports.typed import lex_text, typed_entry
from app.systems.import_traits import PrintedEntry, PrintedList, PrintedNote

Kind = Literal[
    "blank",  # an empty line or a separator (« ----- »)
    "name",  # the list's name
    "system",  # the game system's name
    "total",  # « Total : 199 / 200 points »
    "invalid",  # « Liste non valide »
    "group",  # a group's heading
    "entry",  # an entry's head or one of its detail lines
    "issue",  # an issue the export printed (the engine says its own)
    "note",  # an extra or a note outside the entries
    "link",  # the share's link
]


@dataclass
class Parsed:
    """The list as printed, and every input line's part in it (same length as the input)."""

    format: Format
    printed: PrintedList
    kinds: list[Kind]
    system_name: str | None = None
    links: list[str] = field(default_factory=list)
    headings: dict[int, str] = field(default_factory=dict)  # a group heading's text, by line


# --- which shape, and the blocks ------------------------------------------------------------


def detect(lines: Sequence[str]) -> Format:
    """Which export wrote `lines`, or "typed" when none did."""
    filled = [line for line in lines if line.strip()]
    if any(BB["head"].match(line) or BB["link"].match(line) for line in filled) or (
        filled and BB["first"].match(filled[0]) and any(BB["total"].match(x) for x in filled)
    ):
        return "bbcode"
    if any(MD["head"].match(line) or MD["link"].match(line) for line in filled) or (
        filled and MD["name"].match(filled[0]) and any(MD["total"].match(x) for x in filled)
    ):
        return "markdown"
    if len(filled) >= 3 and filled[2].startswith("Total : ") and filled[0] == lines_start(lines):
        return "text"
    return "typed"


def lines_start(lines: Sequence[str]) -> str:
    """The first line that holds something."""
    return next((line for line in lines if line.strip()), "")


LEXERS: Mapping[Format, Callable[[Sequence[str]], list[Token]]] = {
    "bbcode": lex_bbcode,
    "markdown": lex_markdown,
    "text": lambda lines: lex_text(lines, export=True),
    "typed": lambda lines: lex_text(lines, export=False),
}

_LIMIT = (
    re.compile(r"\b\d+(?:\.\d+)? / (\d{1,6}) points\b"),  # 199 / 200 points
    re.compile(r"\bpoints \d+(?:\.\d+)?/(\d{1,6})\b"),  # points 300/300
)


_FORMAT = re.compile(r"^format\b\D*(\d{1,6})", re.IGNORECASE)


def points_limit(total: str) -> int | None:
    """The format a list's total line states (« 199 / 200 points », « points 300/300 »,
    « Format : 400 pts »)."""
    for pattern in (*_LIMIT, _FORMAT):
        if found := pattern.search(total):
            return int(found[1])
    return None


def parse(text: str, choices: Mapping[int, str] | None = None) -> Parsed:
    """`text` as a printed list. `choices`: the candidate a player picked for a line (by
    its number, from 0), which makes that line an entry of its own."""
    lines = text.split("\n")
    shape = detect(lines)
    tokens = LEXERS[shape](lines)
    return assemble(shape, tokens, choices or {})


@dataclass
class _Entry:
    """An entry being read: its head, then its detail lines."""

    head: Token
    lines: list[int]
    group: str | None
    typed: bool
    chosen: str | None
    details: list[str] = field(default_factory=list)
    house_rules: list[str] = field(default_factory=list)
    origin: tuple[str, str] | None = None

    def printed(self) -> PrintedEntry:
        return PrintedEntry(
            lines=tuple(self.lines),
            count=self.head.count,
            title=self.head.text,
            points=self.head.points,
            total=self.head.total,
            group=self.group,
            details=tuple(self.details),
            house_rules=tuple(self.house_rules),
            origin=self.origin,
            typed=self.typed,
            chosen=self.chosen,
        )


OUTSIDE: dict[str, Kind] = {
    "blank": "blank",
    "name": "name",
    "system": "system",
    "total": "total",
    "invalid": "invalid",
    "group": "group",
    "issue": "issue",
    "link": "link",
}


def assemble(shape: Format, tokens: list[Token], choices: Mapping[int, str]) -> Parsed:
    """The entries, notes and every line's part, from the lexer's tokens."""
    kinds: list[Kind] = []
    entries: list[PrintedEntry] = []
    notes: list[PrintedNote] = []
    links: list[str] = []
    headings: dict[int, str] = {}
    name, system_name, limit, group = "", None, None, None
    current: _Entry | None = None
    typed = shape == "typed"
    for number, token in enumerate(tokens):
        chosen = choices.get(number)
        if chosen is not None and token.kind not in ("head", "blank"):
            made = typed_entry(token.text) if token.text else None
            if made is None or made.kind != "head":
                made = Token("head", made.text if made else token.text or " ", count=1)
            token = made
        if token.kind == "head":
            if current is not None:
                entries.append(current.printed())
            current = _Entry(token, [number], group, typed, chosen)
            kinds.append("entry")
            continue
        if current is not None and (
            token.kind in ("detail", "origin", "house_rule")
            or (token.kind == "issue" and not typed)
        ):
            current.lines.append(number)
            if token.kind == "detail":
                current.details += _parts(shape, token.text)
            elif token.kind == "origin":
                current.origin = (token.text.removeprefix(ORIGIN), token.link)
            elif token.kind == "house_rule":
                current.house_rules.append(token.text)
            kinds.append("entry")
            continue
        if current is not None:
            entries.append(current.printed())
            current = None
        if token.kind == "group":
            group = headings[number] = token.text
        elif token.kind == "name":
            name, system_name = token.text, token.system or system_name
        elif token.kind == "system":
            system_name = token.text
        elif token.kind == "total":
            limit = points_limit(token.text)
        elif token.kind == "link":
            links.append(token.link)
        else:
            notes.append(PrintedNote(number, token.text, token.points, group))
        kinds.append(OUTSIDE.get(token.kind, "note"))
    if current is not None:
        entries.append(current.printed())
    printed = PrintedList(
        name=name, entries=tuple(entries), notes=tuple(notes), points_limit=limit, typed=typed
    )
    return Parsed(shape, printed, kinds, system_name, links, headings)


def _parts(shape: Format, line: str) -> tuple[str, ...]:
    """A detail line's parts, as its export separated them."""
    separator = " - " if shape in ("text", "typed") else " — "
    return tuple(part.strip() for part in line.split(separator) if part.strip())

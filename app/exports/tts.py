"""Tabletop Simulator: each figure of a share as the virtual table shows it (docs/tts.md).

Built from the play sheet (app/systems/sheet.py), so that a figure on the table carries what
its card carries: badges, profile, weapons and equipment, damage track, rules with their
text and line, house rules, errors. Every string a TTS object receives is in TTS's own
BBCode (Tabletop Simulator Knowledge Base, « BB Codes »): `[b]`, `[i]`, `[u]`, `[s]`,
`[sub]`, `[sup]`, and colours as `[RRGGBB]...[-]`; nothing else is a tag there.

The layout follows the TTS army loaders players already use (docs/tts.md cites them):
Yellowscribe's nickname opens with the figure's life in green (`[00ff16]3/3[-] `) and its
description puts each section under a coloured heading; OPR Army Forge to TTS writes a
rule's name in colour and its text under it in `[sup]`. One object per card, with `count`
figures: those loaders give one definition to every figure of a unit.
"""

import re
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.exports.common import issue_text, one_line, total_text
from app.systems.play_traits import Counter
from app.systems.sheet import Sheet, SheetEntry

FORMAT = "caserne-tts"
FORMAT_VERSION = 1

# Colours, as the loaders use them (docs/tts.md).
LIFE = "00ff16"  # Yellowscribe: the wounds at the head of the nickname
STAT = "56f442"  # Yellowscribe: the characteristics' headings
SECTION = "e85545"  # Yellowscribe: a section's heading (« Ranged weapons »)
RULE = "dc61ed"  # Yellowscribe: abilities
ERROR = "c0392b"  # Caserne's invalid colour (the forum BBCode's)

_HEX = re.compile(r"^#?([0-9A-Fa-f]{6})$")


def escape(text: str) -> str:
    """User and catalogue text as TTS shows it literally: one line, and no bracket (TTS has
    no escape; any `[...]` may be read as a tag). Brackets become parentheses, as
    Yellowscribe does (« try not to break formatting »)."""
    return one_line(text).replace("[", "(").replace("]", ")")


def coloured(colour: str, text: str) -> str:
    return f"[{colour}]{text}[-]"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TtsBadge(_Strict):
    text: str
    colour: str | None = Field(None, description="RRGGBB, as TTS writes a colour.")


class TtsStat(_Strict):
    label: str
    value: str


class TtsRule(_Strict):
    name: str
    text: str | None = Field(description="None: the rule text does not give it.")
    source: str


class TtsCounter(_Strict):
    id: str
    label: str
    max: int
    out: bool


class TtsObject(_Strict):
    """One card of the sheet: `count` figures, each named `nickname` and described
    `description` (TTS BBCode); the other fields are the same data, structured."""

    nickname: str
    description: str
    count: int
    name: str
    profile: str | None
    group: str | None
    counted: bool
    points_each: int | None
    badges: list[TtsBadge]
    stats: list[TtsStat]
    details: list[str]
    tracks: list[list[list[str]]]
    rules: list[TtsRule]
    house_rules: list[str]
    errors: list[str]
    counters: list[TtsCounter]


class TtsExtra(_Strict):
    label: str
    text: str


class TtsExport(_Strict):
    """/s/{code}.tts.json (docs/tts-export.schema.json)."""

    format: str = FORMAT
    format_version: int = FORMAT_VERSION
    name: str
    system: str
    system_name: str
    url: str
    total: str
    valid: bool
    figures: int
    objects: list[TtsObject]
    extras: list[TtsExtra]


def tts_colour(colour: str | None) -> str | None:
    """A badge's colour (« #c0392b ») as TTS writes it (« c0392b »); None when it is not
    plain hex (a tag must never carry other text)."""
    found = _HEX.match(colour or "")
    return found.group(1).lower() if found else None


def life(counters: Sequence[Counter]) -> Counter | None:
    """The counter that takes the figure out (its PV, its red dice): Yellowscribe's W/W."""
    return next((counter for counter in counters if counter.out), None)


def nickname(entry: SheetEntry, counters: Sequence[Counter]) -> str:
    """« [00ff16]2/2[-] [b]Sergent[/b] (Sergent personnage) »: one line."""
    alive = life(counters)
    head = f"{coloured(LIFE, f'{alive.max}/{alive.max}')} " if alive else ""
    profile = f" ({escape(entry.profile)})" if entry.profile else ""
    return f"{head}[b]{escape(entry.name)}[/b]{profile}"


def _headline(entry: SheetEntry, has_points: bool) -> list[str]:
    badges = []
    for badge in entry.badges:
        colour = tts_colour(badge.colour)
        badges.append(coloured(colour, escape(badge.text)) if colour else escape(badge.text))
    if has_points:
        badges.append(f"{entry.points_each} pts")
    lines = [" · ".join(badges)] if badges else []
    if entry.group:
        lines.append(f"[i]{escape(entry.group)}[/i]")
    return lines


def _rules(entry: SheetEntry) -> list[str]:
    lines = [coloured(SECTION, "Règles")]
    for rule in entry.rules:
        text = escape(rule.text) if rule.printed else "règle non reproduite dans le texte"
        lines.append(f"{coloured(RULE, escape(rule.name))} [sup]({escape(rule.source)})[/sup]")
        lines.append(f"[sup]{text}[/sup]")
    return lines


def description(entry: SheetEntry, has_points: bool) -> str:
    """The card as TTS's description: sections apart by a blank line, as Yellowscribe's."""
    sections: list[list[str]] = [_headline(entry, has_points)]
    if entry.table is not None:
        pairs = zip(entry.table.columns, entry.table.values, strict=True)
        sections.append(["  ".join(f"{coloured(STAT, escape(c))} {escape(v)}" for c, v in pairs)])
    sections.append([escape(detail) for detail in entry.details])
    for rows in entry.tracks:
        track = [coloured(SECTION, "Indicateur de dégâts")]
        sections.append(track + [" ".join(escape(box) for box in row) for row in rows])
    if entry.rules:
        sections.append(_rules(entry))
    sections.append([f"[i]Règle maison : {escape(rule)}[/i]" for rule in entry.house_rules])
    sections.append([coloured(ERROR, escape(issue_text(issue))) for issue in entry.errors])
    return "\n\n".join("\n".join(lines) for lines in sections if lines)


def tts_object(entry: SheetEntry, counters: Sequence[Counter], has_points: bool) -> TtsObject:
    return TtsObject(
        nickname=nickname(entry, counters),
        description=description(entry, has_points),
        count=entry.count,
        name=entry.name,
        profile=entry.profile,
        group=entry.group,
        counted=entry.counted,
        points_each=entry.points_each if has_points else None,
        badges=[TtsBadge(text=b.text, colour=tts_colour(b.colour)) for b in entry.badges],
        stats=[
            TtsStat(label=label, value=value)
            for label, value in zip(entry.table.columns, entry.table.values, strict=True)
        ]
        if entry.table
        else [],
        details=entry.details,
        tracks=entry.tracks,
        rules=[
            TtsRule(name=r.name, text=r.text if r.printed else None, source=r.source)
            for r in entry.rules
        ],
        house_rules=entry.house_rules,
        errors=[issue.message for issue in entry.errors],
        counters=[TtsCounter(id=c.id, label=c.label, max=c.max, out=c.out) for c in counters],
    )


def tts_export(
    sheet: Sheet, url: str, counters: Callable[[SheetEntry], Sequence[Counter]]
) -> TtsExport:
    """The share's figures for TTS: one object per card of its full sheet. `counters`: what
    the system's play traits track on a card's figures (its mode partie's)."""
    return TtsExport(
        name=sheet.name,
        system=sheet.system,
        system_name=sheet.system_name,
        url=url,
        total=total_text(sheet),
        valid=sheet.valid,
        figures=sheet.figures,
        objects=[tts_object(e, counters(e), sheet.has_points) for e in sheet.entries],
        extras=[
            TtsExtra(label=str(extra.get("label", "")), text=str(extra.get("text", "")))
            for extra in sheet.extras
        ],
    )


def to_tts_text(export: TtsExport) -> str:
    """/s/{code}.tts.txt: a block per card, its name line and its description to paste."""
    out = [
        f"{one_line(export.name)} — {one_line(export.system_name)}",
        f"Total : {export.total}",
        *([] if export.valid else ["Liste non valide"]),
        "Pour Tabletop Simulator : chaque bloc est une figurine (ou plusieurs identiques).",
        "Collez la ligne sous « Nom » dans le nom de l'objet et les lignes sous",
        "« Description » dans sa description (clic droit sur la figurine).",
        export.url,
    ]
    for obj in export.objects:
        figures = f"{obj.count} figurine{'s' if obj.count > 1 else ''}"
        title = one_line(obj.name) + (f" ({one_line(obj.profile)})" if obj.profile else "")
        out += ["", f"===== {figures} : {title} =====", "Nom :", obj.nickname]
        out += ["Description :", obj.description]
    for extra in export.extras:
        out += ["", f"===== {one_line(extra.label)} ====="]
        out += [one_line(extra.text)] if extra.text.strip() else []
    return "\n".join(out) + "\n"


def export_json(export: TtsExport) -> dict[str, Any]:
    return export.model_dump(mode="json")

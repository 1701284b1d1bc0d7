"""A published army book as a page, a forum post (BBCode), Markdown and text: every unit
with its profile (the definition's fields), its cost and breakdown (the system's own
`cost`), its issues, house rules flagged. User text is escaped as in the lists' exports."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.exports import bbcode, markdown
from app.exports.common import issue_text, one_line
from app.systems.base import AnySystem, Issue
from app.systems.books import BookDocument, BookValidation, definition_model, units_in_extras
from app.systems.changes import LABELS

__all__ = [
    "PresentedBook",
    "PresentedUnit",
    "book_bbcode",
    "book_markdown",
    "book_text",
    "present",
    "present_unpublished",
]


@dataclass
class PresentedUnit:
    id: str
    name: str
    text: str
    points: int
    valid: bool
    profile: list[str]
    breakdown: list[tuple[str, int]]
    issues: list[Issue]
    house_rule: bool
    options: list[tuple[str, int, float]] = field(default_factory=list)


@dataclass
class PresentedBook:
    code: str
    name: str
    army: str
    description: str
    system_name: str
    has_points: bool
    version: int
    valid: bool
    latest: str
    units: list[PresentedUnit]


_NAMES: dict[tuple[str, str], dict[str, str]] = {}
# Engine values a player reads in French (Infinity's orders, L14).
WORDS = {"regular": "régulier", "irregular": "irrégulier"}


def catalogue_names(system: AnySystem) -> dict[str, str]:
    """Every catalogue id the system names (items, weapons, skills...): its name, so that a
    profile reads « Arme de tir niveau 3 » rather than `arme_tir_3`. Kept per catalogue
    version (the catalogue is data, read once)."""
    key = (system.id, system.catalogue_version)
    if key not in _NAMES:
        names: dict[str, str] = {}

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                if isinstance(node.get("id"), str) and isinstance(node.get("name"), str):
                    names.setdefault(node["id"], node["name"])
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(system.catalogue().model_dump(mode="json"))
        _NAMES[key] = names
    return _NAMES[key]


def _value(value: Any, names: Mapping[str, str]) -> str:
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, list):
        return ", ".join(_value(item, names) for item in value) or "—"
    if isinstance(value, dict):
        if "name" in value:
            return str(value["name"])
        return " ".join(f"{k} {_value(v, names)}" for k, v in value.items())
    if isinstance(value, str):
        return names.get(value) or WORDS.get(value, value)
    return "—" if value is None else str(value)


def profile_lines(definition: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
    """The definition's fields as a player reads them: « Niveau : 2 », « CT 5 CC 5 ... »,
    catalogue ids by their names."""
    lines = []
    for key, value in definition.items():
        if key in ("id", "name", "source", "options") or value in (None, "", [], {}):
            continue  # the unit's title says its name; what it does not have is not written
        label = LABELS.get(key, key) or "Profil"
        lines.append(f"{label} : {_value(value, names)}")
    return lines


def ordered(system: AnySystem, definition: Any) -> dict[str, Any]:
    """The definition in its model's field order (JSONB keeps its own), else sorted."""
    try:
        return definition_model(system).model_validate(definition).model_dump(mode="json")
    except ValidationError:
        return dict(sorted(definition.items())) if isinstance(definition, dict) else {}


def present(system: AnySystem, body: Mapping[str, Any]) -> PresentedBook:
    """A published book (GET /api/v1/book-shares/{code}'s body) ready for every format."""
    checks = {unit["id"]: unit for unit in body["validation"]["units"]}
    names = catalogue_names(system)
    units = []
    for unit in body["units"]:
        checked = checks.get(unit["id"], {"points": 0, "valid": False, "issues": []})
        issues = [Issue.model_validate(issue) for issue in checked["issues"]]
        definition = unit["definition"]
        breakdown: list[tuple[str, int]] = []
        options: list[tuple[str, int, float]] = []
        if units_in_extras(system):
            names = {o.get("id"): o.get("name", "") for o in definition.get("options", [])}
            options = [
                (str(names.get(o["id"], o["id"])), o["points"], o["swc"])
                for o in checked.get("options") or []
            ]
        else:
            try:
                costed = system.cost(system.unit_model.model_validate(definition))
                breakdown = [(line.label, line.points) for line in costed.breakdown]
            except ValidationError:
                breakdown = []
        units.append(
            PresentedUnit(
                id=unit["id"],
                name=unit["name"],
                text=unit.get("text", ""),
                points=checked["points"],
                valid=checked["valid"],
                profile=profile_lines(ordered(system, definition), names),
                breakdown=breakdown,
                issues=issues,
                house_rule=any(issue.code == "house_rule" for issue in issues),
                options=options,
            )
        )
    return PresentedBook(
        code=body["code"],
        name=body["name"],
        army=body["army"],
        description=body["description"],
        system_name=system.name,
        has_points=system.has_points,
        version=body["version"],
        valid=body["validation"]["valid"],
        latest=body["latest"],
        units=units,
    )


def present_unpublished(
    system: AnySystem, document: BookDocument, validation: BookValidation, version: int
) -> PresentedBook:
    """A book not published (a draft, an example) as `present` shows a published one."""
    body = {
        **document.model_dump(mode="json"),
        "code": "",
        "latest": "",
        "version": version,
        "validation": validation.model_dump(mode="json"),
    }
    return present(system, body)


def _cost(book: PresentedBook, unit: PresentedUnit) -> str:
    if not book.has_points:
        return ""
    if unit.options:
        return f"à partir de {unit.points} pts"
    return f"{unit.points} pts"


def _titled(book: PresentedBook, unit: PresentedUnit, name: str, escape: Any) -> str:
    """« Nom — 28 pts » (the name already marked up, the cost escaped)."""
    cost = _cost(book, unit)
    return f"{name} — {escape(cost)}" if cost else name


def _details(book: PresentedBook, unit: PresentedUnit) -> list[str]:
    lines = list(unit.profile)
    if book.has_points:
        lines += [f"{label} : {points} pts" for label, points in unit.breakdown]
        lines += [
            f"Option {name} : {points} pts" + (f" (CAP {swc:g})" if swc else "")
            for name, points, swc in unit.options
        ]
    if unit.house_rule:
        lines.append("Règle maison (hors règles publiées)")
    lines += [issue_text(issue) for issue in unit.issues if issue.code != "house_rule"]
    if unit.text:
        lines.append(unit.text)
    return lines


def _heading(book: PresentedBook) -> str:
    army = f" ({book.army})" if book.army else ""
    return f"{book.name}{army} — {book.system_name}, v{book.version}"


def book_text(book: PresentedBook, url: str) -> str:
    out = [one_line(_heading(book))]
    if not book.valid:
        out.append("Livre avec des unités non valides")
    if book.description:
        out.append(one_line(book.description))
    for unit in book.units:
        out.append("")
        out.append(_titled(book, unit, one_line(unit.name), one_line))
        out += [f"  {one_line(line)}" for line in _details(book, unit)]
    out += ["", url]
    return "\n".join(out) + "\n"


def book_bbcode(book: PresentedBook, url: str) -> str:
    out = [f"[b]{bbcode.escape(_heading(book))}[/b]"]
    if not book.valid:
        out.append(f"[color={bbcode.INVALID_COLOUR}]Livre avec des unités non valides[/color]")
    if book.description:
        out.append(bbcode.escape(book.description))
    # One block per unit, not a [list]: forums and parsers end a [*] item at its line's end,
    # which put every profile line outside its unit (bbcode.Parser showed it).
    for unit in book.units:
        out.append("")
        out.append(_titled(book, unit, f"[b]{bbcode.escape(unit.name)}[/b]", bbcode.escape))
        out += [bbcode.escape(line) for line in _details(book, unit)]
    out.append("")
    out.append(f"[url={url}]{bbcode.escape(url)}[/url]")
    return "\n".join(out) + "\n"


def book_markdown(book: PresentedBook, url: str) -> str:
    out = [f"## {markdown.escape(_heading(book))}", ""]
    if not book.valid:
        out += ["**Livre avec des unités non valides**", ""]
    if book.description:
        out += [markdown.escape(book.description, line_start=True), ""]
    for unit in book.units:
        out.append(_titled(book, unit, f"* **{markdown.escape(unit.name)}**", markdown.escape))
        for line in _details(book, unit):
            # Each detail opens its list item's line: a text there is no heading, list or rule.
            out.append(f"  * {markdown.escape(line, line_start=True)}")
    out += ["", f"<{url}>"]
    return "\n".join(out) + "\n"

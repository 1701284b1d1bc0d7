"""Bastos pages: the catalogue (weapon table, Rep, the text's figures, decisions), the figure
creator with its live sheet, the band's extras in the editor, and the « Quelles sont mes
chances ? » panel (catalogue page and band editor)."""

import hashlib
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from fastapi import APIRouter, Request, Response
from starlette.datastructures import FormData

from app.systems.bastos import BastosSystem
from app.systems.bastos.chances import (
    FLAGS,
    TARGETS,
    TESTS,
    answer,
    figure_value,
    panel_values,
)
from app.systems.bastos.odds import MORE_LABELS
from app.systems.bastos.present import OPTIONAL_RULES, percent, weapon_text
from app.systems.bastos.reactions import LABELS
from app.web.forms import form_text, int_or_raw
from app.web.render import is_htmx, render
from app.web.system_pages import SystemPages

STATIC = Path(__file__).parent / "static"
# The pages' own stylesheet and script, served from this package (the CSP allows our origin
# only, no inline <style> or script): immutable, their URL carrying their content's hash.
ASSETS = {
    name: (STATIC.joinpath(name).read_bytes(), media_type)
    for name, media_type in (("bastos.css", "text/css"), ("bastos.js", "text/javascript"))
}
ASSET_URLS = {
    name: f"/bastos/static/{name}?v={hashlib.sha256(body).hexdigest()[:12]}"
    for name, (body, _) in ASSETS.items()
}
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable"}

MARGINS = {
    "win_by_2": "Gagne de 2",
    "win_by_1": "Gagne de 1",
    "tie": "Égalité (RAS)",
    "lose_by_1": "Perd de 1",
    "lose_by_2": "Perd de 2",
}
WOUNDS = {"dead": "Raide Mort", "out_of_action": "Hors de Combat", "stunned": "Sonné"}


def cm(value: float | None) -> str:
    """7.5 → "7,5cm", as the table prints it; « - » for no value."""
    return "-" if value is None else f"{value:g}".replace(".", ",") + "cm"


def width(probability: str) -> float:
    """A probability as the width of its bar, in percent."""
    return round(float(Fraction(probability)) * 100, 1)


def sample_choices(cat: Any) -> list[tuple[str, str]]:
    """The panel's figures on the catalogue page: the text's figures."""
    return [
        (figure_value(f.rep, f.leader, f.star, f.weapon), f"{f.name} (Rep {f.rep})")
        for f in cat.figures
    ]


def band_choices(result: Any) -> list[tuple[str, str]]:
    """The panel's figures in the editor: the band's own, once each."""
    seen: dict[str, str] = {}
    for entry in result.entries if result is not None else []:
        derived = entry.derived
        weapon = derived.weapon.id if derived.weapon else None
        value = figure_value(derived.rep, derived.leader, derived.star, weapon)
        seen.setdefault(value, f"{entry.name} (Rep {derived.rep})")
    return [(value, label) for value, label in seen.items()]


class BastosPages(SystemPages[BastosSystem]):
    labels: ClassVar[Mapping[str, str]] = {
        "rep": "Rep",
        "leader": "Leader",
        "star": "Star",
        "weapon": "Arme",
        "objective": "Objectif",
        "optional_rules": "Règles optionnelles",
    }

    lookups = ("weapons",)

    def catalogue_context(self, cat: Any) -> dict[str, Any]:
        return {
            "optional_rules": OPTIONAL_RULES,
            "pct": percent,
            "weapon_text": weapon_text,
            "labels": {**MORE_LABELS, **LABELS, **WOUNDS, **TARGETS, **MARGINS},
            "odds_tests": TESTS,
            "odds_targets": TARGETS,
            "odds_flags": FLAGS,
            "band_choices": band_choices,
            "sample_choices": sample_choices(cat),
            "odds": panel_values(None),
            "ask": self.ask,
            "cm": cm,
            "width": width,
            "bastos_css": ASSET_URLS["bastos.css"],
            "bastos_js": ASSET_URLS["bastos.js"],
        }

    def ask(self, values: dict[str, Any], figure: str) -> Any:
        """The panel's first answer, rendered with the page (its first figure)."""
        return answer(self.engine.data, {**values, "figure": figure})

    # --- the creator ---------------------------------------------------------------------

    def default_unit(self) -> dict[str, Any]:
        return {"name": "", "rep": 4, "leader": False, "star": False, "weapon": "revolver"}

    def unit_from_form(self, form: FormData) -> dict[str, Any]:
        weapon = str(form.get("weapon") or "")
        return {
            "name": form_text(form, "name"),
            "rep": int_or_raw(form.get("rep")),
            "leader": bool(form.get("leader")),
            "star": bool(form.get("star")),
            "weapon": weapon or None,
        }

    def definition(self, values: dict[str, Any]) -> dict[str, Any]:
        return {key: values[key] for key in ("rep", "leader", "star", "weapon")}

    def values_from_entry(self, entry: dict[str, Any]) -> dict[str, Any] | None:
        custom = entry["custom"]
        keys = ("rep", "leader", "star", "weapon")
        return {"name": entry.get("name") or "", **{key: custom.get(key) for key in keys}}

    # --- the band editor -----------------------------------------------------------------

    def extras_from_form(self, form: FormData) -> dict[str, Any]:
        return {
            "objective": form_text(form, "objective", 200),
            "optional_rules": [str(rule) for rule in form.getlist("optional_rules")],
        }

    # --- the odds panel ------------------------------------------------------------------

    def router(self) -> APIRouter:
        router = super().router()

        @router.get("/static/{name}")
        def asset(name: str) -> Response:
            if name not in ASSETS:
                return Response(status_code=404)
            body, media_type = ASSETS[name]
            return Response(body, media_type=media_type, headers=IMMUTABLE)

        @router.post("/chances")
        async def chances(request: Request) -> Response:
            form = await request.form()
            values = panel_values(form)
            context = {
                "system": self.system,
                **self.context(),
                "odds": values,
                "odds_answer": answer(self.engine.data, values),
                "choices": _choices(str(form.get("odds-choices") or "")),
            }
            if is_htmx(request):
                return render(request, "systems/bastos/odds_answer.html", context)
            return render(request, "systems/bastos/chances.html", context)

        return router


def _choices(text: str) -> list[tuple[str, str]]:
    """The panel's figure choices, sent back with the form ("value=label" per line)."""
    pairs = []
    for line in text.splitlines()[:200]:
        value, _, label = line.partition("=")
        if value:
            pairs.append((value, label[:120] or value))
    return pairs

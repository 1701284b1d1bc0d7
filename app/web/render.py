"""Templates: a page, or one of its blocks alone for HTMX (jinja2-fragments)."""

import re
from pathlib import Path
from typing import Any

from fastapi import Request, Response
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader
from jinja2_fragments.fastapi import Jinja2Blocks

from app.settings import ROOT
from app.web.assets import asset, static

templates = Jinja2Blocks(directory=ROOT / "templates")
# Templates are read once per process, as the catalogues are (a deploy restarts it): Jinja
# no longer stats each template's file at every use (the editor's rows include their
# system's controls, so a save of 50 rows made ~55 stat calls; issue 19).
templates.env.auto_reload = False
# A system whose templates live outside templates/systems/<id>/ (`SystemSpec.templates_dir`)
# has them found under the same names, « systems/<id>/<file> » (add_system_templates).
_SYSTEM_FOLDERS: dict[str, BaseLoader] = {}
assert templates.env.loader is not None
templates.env.loader = ChoiceLoader(
    [PrefixLoader({"systems": PrefixLoader(_SYSTEM_FOLDERS)}), templates.env.loader]
)
templates.env.globals["htmx_version"] = "2.0.11"
templates.env.globals["idiomorph_version"] = "0.8.0"
templates.env.globals["static"] = static
templates.env.globals["asset"] = asset


def add_system_templates(system_id: str, folder: Path) -> None:
    """Templates named « systems/<system_id>/<file> » are read from `folder`."""
    _SYSTEM_FOLDERS[system_id] = FileSystemLoader(folder)


# A reference to the rule text's lines, "(L155-156)", "(L124, L171)" or the end of a
# parenthesis, "(aucun profil imprimé, L223-238)": kept for those who want it (a tooltip),
# not in the sentence a player reads.
_LINES = r"L\d+(?:[-–]\d+)?(?:\s*[,;]\s*L\d+(?:[-–]\d+)?)*"
_REFERENCES = re.compile(rf"\s*\(({_LINES})\)|,\s*({_LINES})(?=\))")


def split_references(text: str) -> tuple[str, str]:
    """The text without its line references, and those references ("L155-156, L170")."""
    found = [m.group(1) or m.group(2) for m in _REFERENCES.finditer(text)]
    return _REFERENCES.sub("", text), ", ".join(found)


templates.env.filters["split_references"] = split_references

# A summary line's damage track ("Indicateur de dégâts : 1 2 3 Mv Ar / 6 7 Mv…", as a
# system's summary writes it): one row per " / ", one box per label.
DAMAGE_TRACK = "Indicateur de dégâts : "


def damage_track_rows(detail: str) -> list[list[str]] | None:
    """The boxes of a damage track written in a summary detail, or None for other details."""
    if not detail.startswith(DAMAGE_TRACK):
        return None
    rows = [row.split() for row in detail.removeprefix(DAMAGE_TRACK).split(" / ")]
    return [row for row in rows if row] or None


templates.env.filters["damage_track_rows"] = damage_track_rows


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def render(
    request: Request,
    template: str,
    context: dict[str, Any],
    *,
    block: str | None = None,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    """The whole page, or only `block` when HTMX asks; such URLs vary on HX-Request."""
    fragment = block if block is not None and is_htmx(request) else None
    response: Response = templates.TemplateResponse(
        request, template, context, status_code=status, headers=headers, block_name=fragment
    )
    if block is not None:
        response.headers["Vary"] = "HX-Request"
    return response


MESSAGES = {
    400: "Requête incorrecte.",
    401: "Cette liste est privée.",
    403: "Accès refusé.",
    404: "Page introuvable.",
    405: "Méthode non permise.",
    409: "Conflit de version.",
    413: "Requête trop volumineuse.",
    414: "Adresse trop longue.",
    422: "Données incorrectes.",
    429: "Trop de requêtes.",
    500: "Erreur interne.",
}


def html_error(request: Request, status: int, detail: str) -> Response:
    return render(
        request,
        "error.html",
        {"status": status, "title": MESSAGES.get(status, "Erreur"), "detail": detail},
        status=status,
    )

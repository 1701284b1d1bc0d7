"""« Importer une liste » (`/listes/importer`): paste a text or drop a file, see what each
line became (a catalogue unit, a unit rebuilt from its printed profile, « non reconnu »
with the closest names to choose from), then save it as one new list of the carnet.
Nothing is stored before « Enregistrer » (docs/import.md)."""

from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, Response
from sqlmodel import Session
from starlette.datastructures import FormData, UploadFile

from app.exports.common import cost_text, total_text
from app.imports.checks import MAX_CHOICES, MAX_TEXT_BYTES, ImportRefused, choices_of, decoded
from app.imports.reading import Imported
from app.imports.service import import_list
from app.urls import public_base
from app.web.forms import with_form
from app.web.render import render
from app.web.toolkit import create_and_open, systems_of

router = APIRouter(include_in_schema=False)

STATUS_TEXT = {
    "matched": "reconnue",
    "custom": "recréée d'après le profil imprimé",
    "share": "reprise du partage",
    "ignored": "",
    "unknown": "non reconnue",
}


@dataclass(frozen=True)
class EntryView:
    """An entry of the document as the preview shows it beside its first line."""

    head: int  # the first input line that made it
    count: int
    title: str
    cost: str


def entry_views(imported: Imported) -> dict[int, EntryView]:
    """Each entry's first summary line (the engine's count, name and cost), by entry."""
    heads: dict[int, int] = {}
    for number, read in enumerate(imported.lines):
        if read.entry is not None:
            heads.setdefault(read.entry, number)
    views: dict[int, EntryView] = {}
    for line in imported.summary.lines:
        if line.entry is not None and line.entry in heads and line.entry not in views:
            cost = cost_text(line, imported.summary)
            views[line.entry] = EntryView(heads[line.entry], line.count, line.title, cost)
    return views


def page(
    request: Request,
    *,
    text: str = "",
    system: str = "",
    name: str = "",
    imported: Imported | None = None,
    choices: dict[int, str] | None = None,
    error: str = "",
    status: int = 200,
) -> Response:
    context: dict[str, Any] = {
        "text": text,
        "chosen_system": system,
        "systems": list(systems_of(request).values()),
        "imported": imported,
        "name": name or (imported.summary.name if imported is not None else ""),
        "error": error,
        "status_text": STATUS_TEXT,
        "max_kib": MAX_TEXT_BYTES // 1024,
        "choices": choices or {},
    }
    if imported is not None:
        context |= {
            "total": total_text(imported.summary),
            "unknown": sum(1 for line in imported.lines if line.status == "unknown"),
            "entries": entry_views(imported),
            "cost_of": lambda line: cost_text(line, imported.summary),
        }
    response = render(request, "roster/import.html", context, status=status)
    response.headers["Cache-Control"] = "private, no-store"
    return response


@router.get("/listes/importer")
def import_form(request: Request) -> Response:
    """The form: a text to paste or a file to drop, and its game (or « trouver tout seul »)."""
    return page(request)


def posted_text(form: FormData) -> tuple[str, bool]:
    """The posted list: a dropped file's content (UTF-8) if any, else the pasted text;
    and whether it must be JSON (a `.json` file)."""
    uploads = [value for _key, value in form.multi_items() if isinstance(value, UploadFile)]
    try:
        upload = form.get("fichier")
        if isinstance(upload, UploadFile) and upload.filename:
            data = upload.file.read(MAX_TEXT_BYTES + 1)
            return decoded(data), upload.filename.lower().endswith(".json")
        return str(form.get("texte") or ""), False
    finally:  # read once, closed at once (even an empty file field's)
        for each in uploads:
            each.file.close()


def choices_in(form: FormData) -> dict[int, str]:
    """The candidates chosen for « non reconnu » lines: `choix-<line>` fields."""
    fields = form.multi_items()[: MAX_CHOICES * 4]
    return choices_of({k.removeprefix("choix-"): v for k, v in fields if k.startswith("choix-")})


def read_posted(
    request: Request, session: Session, form: FormData
) -> tuple[str, str, Imported | None, ImportRefused | None]:
    """The posted text, the system asked for, and what it became (or why it was refused)."""
    system = str(form.get("systeme") or "")[:40]
    try:
        text, json_file = posted_text(form)
        if json_file and not text.lstrip().startswith("{"):
            raise ImportRefused("json_invalid", "Ce fichier .json ne contient pas de JSON.")
        imported = import_list(
            session,
            systems_of(request),
            public_base(request),
            text,
            system or None,
            choices_in(form),
        )
    except ImportRefused as refused:
        return "", system, None, refused
    return text, system, imported, None


def preview(request: Request, session: Session, form: FormData) -> Response:
    """What the text became, line by line; nothing stored."""
    text, system, imported, refused = read_posted(request, session, form)
    if refused is not None:
        shown = str(form.get("texte") or "")[: MAX_TEXT_BYTES + 1]
        return page(
            request, text=shown, system=system, error=refused.message, status=refused.status
        )
    name = str(form.get("nom") or "")[:100]
    return page(
        request, text=text, system=system, name=name, imported=imported, choices=choices_in(form)
    )


def save(request: Request, session: Session, form: FormData) -> Response:
    """The list as previewed (the same text, the same choices), stored as a new list of
    this browser's carnet; its editor opens."""
    _text, system, imported, refused = read_posted(request, session, form)
    if refused is not None or imported is None:
        message = refused.message if refused is not None else "Rien à enregistrer."
        shown = str(form.get("texte") or "")[: MAX_TEXT_BYTES + 1]
        status = refused.status if refused is not None else 422
        return page(request, text=shown, system=system, error=message, status=status)
    document = imported.document.model_dump(mode="json")
    name = " ".join(str(form.get("nom") or "").split())[:100]
    if name:
        document["name"] = name
    return create_and_open(request, session, imported.system, document)


router.add_api_route("/listes/importer", with_form(preview), methods=["POST"])
router.add_api_route("/listes/importer/enregistrer", with_form(save), methods=["POST"])

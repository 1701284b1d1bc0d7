"""« Télécharger mon carnet » and « Restaurer un carnet » (issue 30; docs/carnet-file.md):
the browser's carnet as one JSON file, and such a file brought into it as new lists, books
and campaigns, with a report in French of what came in. A bad file gets a French message
and stores nothing."""

import json
import re
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData, UploadFile

from app.carnet_file.export import export_carnet
from app.carnet_file.models import FORMAT_VERSION, CarnetFile
from app.carnet_file.restore import restore_carnet
from app.carnet_file.state import Restored, Skipped
from app.db import SessionDep
from app.store.models import utcnow
from app.web.deps import BrowserCarnet, writing_carnet
from app.web.forms import with_form
from app.web.library import no_store
from app.web.render import html_error, render
from app.web.toolkit import systems_of

router = APIRouter(include_in_schema=False)

NO_CARNET = "Ce navigateur n'a pas encore de carnet : rien à télécharger."
NO_FILE = "Choisissez le fichier d'un carnet (un fichier .json téléchargé depuis Caserne)."
NOT_UTF8 = "Ce fichier n'est pas un texte en UTF-8 : ce n'est pas un fichier de carnet."
NOT_JSON = "Ce fichier n'est pas du JSON : ce n'est pas un fichier de carnet de Caserne."
NOT_A_CARNET = (
    'Ce fichier n\'est pas un carnet de Caserne : il y manque « "format": "caserne-carnet" ».'
)
NEWER = (
    "Ce carnet vient d'une version plus récente de Caserne (format {found}) : ce serveur lit "
    "le format " + str(FORMAT_VERSION) + ". Rien n'a été restauré."
)
HOSTILE = (
    "Ce fichier contient un texte ou une valeur que Caserne ne peut pas garder (caractère "
    "invalide, imbrication trop profonde, nombre démesuré) : rien n'a été restauré."
)
TOO_MANY = "Ce fichier tient plus qu'un carnet ne peut ({where}) : rien n'a été restauré."
BROKEN = "Ce fichier de carnet est abîmé ({where}) : rien n'a été restauré."

PARTS = {
    "rosters": "liste",
    "books": "livre",
    "gangs": "gang",
    "campaigns": "campagne",
    "published": "version publiée",
    "battles": "bataille",
}
SKIPPED = {
    "unknown_system": "son système de jeu n'est pas sur ce serveur",
    "invalid_document": "elle ne correspond pas au catalogue d'aujourd'hui",
    "system_mismatch": "son document est d'un autre système de jeu",
    "gang_not_restored": "sa liste n'a pas pu être restaurée",
    "duplicate_battle": "ce numéro de bataille y est deux fois",
    "battle_state": "l'état du gang après cette bataille n'est pas sur ce serveur : sa page "
    "montre le gang tel qu'il est arrivé",
}


def where(path: str) -> str:
    """« rosters[2].document » (or « rosters.2.document ») as a player reads it:
    « liste n° 3 »."""
    words = []
    parts = [part for part in re.split(r"[.\[\]]", path) if part]
    for at, part in enumerate(parts):
        if part in PARTS:
            following = parts[at + 1] if at + 1 < len(parts) else ""
            words.append(PARTS[part] + (f" n° {int(following) + 1}" if following.isdigit() else ""))
    return ", ".join(words) or "le fichier"


def refused(error: ValidationError) -> str:
    """A file the format refuses, in French."""
    first = error.errors()[0]
    loc = ".".join(str(part) for part in first["loc"])
    kind = first["type"]
    if kind == "format_version":
        return NEWER.format(found=first.get("ctx", {}).get("version", "?"))
    if kind in ("invalid_text", "json_too_deep", "int_too_large", "finite_number"):
        return HOSTILE
    if loc in ("format", "format_version") or kind == "model_attributes_type":
        return NOT_A_CARNET
    if kind in ("too_long", "too_many_battles"):
        return TOO_MANY.format(where=where(loc))
    return BROKEN.format(where=where(loc))


def read_file(upload: Any) -> CarnetFile | str:
    """The uploaded carnet file, or why not (in French)."""
    if not isinstance(upload, UploadFile):
        return NO_FILE
    try:
        data = upload.file.read()  # bounded: the body limit read it first
    finally:
        upload.file.close()
    if not data:
        return NO_FILE
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return NOT_UTF8
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return NOT_JSON
    if not isinstance(value, dict) or "format" not in value:
        return NOT_A_CARNET
    try:
        return CarnetFile.model_validate(value)
    except ValidationError as error:
        return refused(error)


@router.get("/listes/carnet/fichier")
def download(request: Request, carnet: BrowserCarnet, session: SessionDep) -> Response:
    """« Télécharger mon carnet »: the browser's carnet as one JSON file."""
    if carnet is None:
        return no_store(html_error(request, 404, NO_CARNET))
    file = export_carnet(session, systems_of(request), carnet)
    name = f"carnet-caserne-{utcnow().date().isoformat()}.json"
    return Response(
        file.model_dump_json(),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "Cache-Control": "private, no-store",
        },
    )


def restore_page(request: Request, message: str | None = None, status: int = 200) -> Response:
    context = {"message": message, "max_bytes": request.app.state.settings.max_body_bytes}
    return no_store(render(request, "carnet/restore.html", context, status=status))


@router.get("/listes/carnet/restauration")
def ask_restore(request: Request) -> Response:
    return restore_page(request)


def skipped_lines(file: CarnetFile, skipped: list[Skipped]) -> list[str]:
    """What did not come in, as a player reads it."""
    out = []
    for item in skipped:
        found = re.match(r"rosters\[(\d+)\]", item.path)
        name = ""
        if found and int(found.group(1)) < len(file.rosters):
            name = f" « {file.rosters[int(found.group(1))].name or 'Liste sans nom'} »"
        out.append(f"{where(item.path).capitalize()}{name} : {SKIPPED.get(item.code, item.code)}.")
    return out


def restore(request: Request, session: Session, form: FormData) -> Response:
    """The file brought in; the report of what came in."""
    found = read_file(form.get("fichier"))
    if isinstance(found, str):
        return restore_page(request, found, 422)
    carnet = writing_carnet(request, session)
    done: Restored = restore_carnet(session, systems_of(request), carnet, found)
    context = {
        "done": done,
        "published": sum(len(book.published) for book in found.books),
        "skipped": skipped_lines(found, done.skipped),
    }
    return no_store(render(request, "carnet/restored.html", context))


router.add_api_route("/listes/carnet/restauration", with_form(restore), methods=["POST"])

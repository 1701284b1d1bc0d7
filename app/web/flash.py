"""A message for the next view of a page after a redirect (« Liste supprimée », « Unité
retirée du livre »…), kept one minute in a cookie of that part of the site. It may carry
« Annuler »: the path its button posts to (one of this site's, checked when read)."""

import re
from urllib.parse import quote, unquote

from fastapi import Request, Response

FLASH = "caserne_library_flash"
# Where an « Annuler » button may post: the restore routes of lists, books and units.
UNDO_PATH = re.compile(r"/(?:listes|livres)/[A-Za-z0-9_]{1,64}(?:/[A-Za-z0-9_]{1,64}){0,3}")


def set_flash(response: Response, path: str, kind: str, text: str, undo: str = "") -> None:
    """The message of the next view under `path`; `undo`: where its « Annuler » posts."""
    response.set_cookie(
        FLASH,
        quote(f"{kind}:{undo}:{text}"),
        max_age=60,
        httponly=True,
        samesite="lax",
        path=path,
    )


def read_flash(request: Request) -> dict[str, str] | None:
    raw = request.cookies.get(FLASH)
    if not raw:
        return None
    kind, _, rest = unquote(raw).partition(":")
    undo, _, text = rest.partition(":")
    return {
        "kind": kind if kind in ("ok", "error") else "ok",
        "text": text[:300],
        "undo": undo if UNDO_PATH.fullmatch(undo) else "",
    }


def shown_once(request: Request, response: Response, path: str) -> Response:
    """The page shown with its message: the cookie is deleted."""
    if FLASH in request.cookies:
        response.delete_cookie(FLASH, path=path)
    return response

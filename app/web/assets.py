"""Static assets under hashed URLs (/static/caserne.css?v=<hash>): a changed file gets a new
URL, so browsers and the service worker may keep the old one for a year (cache-busting).

`static(name)` is the template helper; `asset` is its alias for scripts and stylesheets.
"""

import hashlib
from functools import cache
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from app.settings import ROOT

STATIC = ROOT / "static"
IMMUTABLE = "public, max-age=31536000, immutable"


@cache
def digest(name: str) -> str:
    """The first 12 hex digits of the file's SHA-256 (read once per process)."""
    return hashlib.sha256((STATIC / name).read_bytes()).hexdigest()[:12]


def static(name: str) -> str:
    """The hashed URL of static/<name>."""
    path = (STATIC / name).resolve()
    if not path.is_relative_to(STATIC.resolve()) or not path.is_file():
        raise ValueError(f"no static file {name!r}")
    return f"/static/{name}?v={digest(name)}"


asset = static


class HashedStaticFiles(StaticFiles):
    """static/: a request naming the current hash (?v=) may be cached for a year; any
    other is revalidated (no-cache, with the ETag StaticFiles sends)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            query = scope.get("query_string", b"").decode()
            current = _current(path)
            if current and f"v={current}" in query.split("&"):
                response.headers["Cache-Control"] = IMMUTABLE
            else:
                response.headers["Cache-Control"] = "no-cache"
        return response


def _current(path: str) -> str | None:
    file = (STATIC / path).resolve()
    if not file.is_relative_to(STATIC.resolve()) or not file.is_file():
        return None
    return digest(Path(path).as_posix())

"""The public share page and its exports: immutable, cacheable, conditional (ETag).

Shares never change, so each process remembers a share's ETag and its rendered page: a
conditional request is answered without the database, a repeated one without rendering.
"""

import hashlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse
from sqlmodel import Session

from app.book_service import BookService
from app.book_units import Newer, Origin, drawn_units
from app.dates import as_utc, french_date
from app.deps import ReadSessionDep, public_session
from app.exports import TEXT_EXPORTS, to_bbcode
from app.exports.common import Origins
from app.exports.tts import export_json, to_tts_text
from app.http_cache import Memo, immutable_headers, not_modified
from app.problems import problem_response
from app.security.cookies import CARNET_COOKIE
from app.store import rosters as store
from app.store.models import Share
from app.store.retention import VIEWS, note_view_in, today, viewed_share
from app.systems.base import RosterSummary
from app.systems.sheet import opens_compact
from app.urls import public_base
from app.web.deps import editable_or_none
from app.web.play import tts_of
from app.web.render import html_error, render
from app.web.toolkit import GONE_SHARE, MISSING_SHARE, no_share_page

# A share drawn from army books may learn that a book has a newer version (as `/a/{code}`).
BOOK_MAX_AGE = 60


def og_description(summary: RosterSummary) -> str:
    parts = [f"{line.count} × {line.name}" for line in summary.lines[:8]]
    more = len(summary.lines) - 8
    text = ", ".join(parts) + (f" et {more} autre(s)" if more > 0 else "")
    return f"{summary.system_name} — {text}" if text else summary.system_name


def drawn_books(
    request: Request, session: Session, shared: Share, *, newer: bool = True
) -> tuple[dict[int, Origin], list[Newer]] | None:
    """A share drawn from army books: each entry's origin, and (with `newer`) the books
    with a newer published version; None when no entry comes from a book (no lookup)."""
    system = request.app.state.systems.get(shared.snapshot.get("system"))
    document = shared.snapshot.get("roster")
    if system is None or not isinstance(document, dict) or not drawn_units(system, document):
        return None
    books = BookService(session, request.app.state.systems)
    later = books.newer_books(system, document) if newer else []
    return books.entry_origins(system, document), later


def origin_links(origins: Mapping[int, Origin], base: str) -> Origins:
    """What the exports write for each drawn entry: its label and its book's link."""
    return {index: (o.label, f"{base}/a/{o.code}") for index, o in origins.items()}


def share_json(shared: Share) -> dict[str, Any]:
    """/s/{code}.json: the body of get_share (ShareOut), key for key."""
    snapshot = shared.snapshot
    return {
        "code": shared.code,
        "system": shared.system,
        "catalogue_version": shared.catalogue_version,
        "created_at": as_utc(shared.created_at).isoformat().replace("+00:00", "Z"),
        "roster": snapshot["roster"],
        "validation": snapshot["validation"],
        "summary": snapshot["summary"],
    }


router = APIRouter(include_in_schema=False)


def page_headers(request: Request, etag: str) -> dict[str, str]:
    """A share page's caching headers: immutable, but per Cookie (a browser whose carnet owns
    the list gets its own page, with « Modifier »; a shared cache must not answer it with
    the public one, issue 29)."""
    return {**immutable_headers(request, etag), "Vary": "Cookie"}


@dataclass
class Remembered:
    """What a process remembers of the shares it served: their ETags and rendered pages.
    Bounded in bytes: 100,000 ETags weigh ~7 MB; rendered pages at most 32 MB per process
    (UTF-8, as sent: bytes as they weigh). One per app (app.state)."""

    etags: Memo[str] = field(default_factory=lambda: Memo(8 * 1024 * 1024))
    pages: Memo[bytes] = field(default_factory=lambda: Memo(32 * 1024 * 1024))


_REMEMBERED_LOCK = threading.Lock()


def remembered(request: Request) -> Remembered:
    """The app's memory of its share pages (made at its first share page)."""
    state = request.app.state
    found: Remembered | None = getattr(state, "share_memory", None)
    if found is None:
        with _REMEMBERED_LOCK:
            found = getattr(state, "share_memory", None)
            if found is None:
                found = state.share_memory = Remembered()
    return found


# Tabletop Simulator's exports: /s/{code}.tts.json and .tts.txt (docs/tts.md). A share code
# holds no dot, so « abc.tts » and « json » are what the route's {code} and {ext} receive.
TTS = ".tts"


@router.get("/s/{code}.{ext}")
def export(code: str, ext: str, request: Request, session: ReadSessionDep) -> Response:
    if code.endswith(TTS) and ext in ("json", "txt"):
        code, ext = code.removesuffix(TTS), f"tts.{ext}"
    shared = viewed_share(session, code)  # a view: at most one write a day, on the primary
    for_programs = ext in ("json", "tts.json")
    if shared is None and store.share_gone(session=session, code=code):
        if for_programs:
            return problem_response(
                410, "This share was removed.", code="share_gone", loc=["path", "code"]
            )
        return html_error(request, 410, GONE_SHARE)
    if for_programs and shared is None:
        # A program's export: a problem like get_share's (issue 28, item 6).
        return problem_response(404, "No such share.", code="share_not_found", loc=["path", "code"])
    if shared is None or (ext not in TEXT_EXPORTS and ext not in ("json", "tts.json", "tts.txt")):
        return html_error(request, 404, MISSING_SHARE)
    etag = f"{shared.etag}-{ext}"
    headers = immutable_headers(request, etag)
    if not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    if ext == "json":
        return JSONResponse(share_json(shared), headers=headers)
    if ext.startswith("tts."):
        table = tts_of(request, shared.snapshot, f"{public_base(request)}/s/{code}")
        if ext == "tts.json":
            return JSONResponse(export_json(table), headers=headers)
        return Response(to_tts_text(table), media_type="text/plain; charset=utf-8", headers=headers)
    media_type, exporter = TEXT_EXPORTS[ext]
    summary = RosterSummary.model_validate(shared.snapshot["summary"])
    base = public_base(request)
    # Published book versions never change: the origins keep the export immutable.
    books = drawn_books(request, session, shared, newer=False)
    origins = origin_links(books[0], base) if books is not None else None
    text = exporter(summary, f"{base}/s/{code}", origins)
    return Response(text, media_type=media_type, headers=headers)


async def page(request: Request) -> Response:
    """GET /s/{code}: a plain Starlette route (no dependencies to solve on the hot path)."""
    code: str = request.path_params["code"]
    # A browser with a carnet may be the owner (« Modifier »): its page is its own.
    creator_view = CARNET_COOKIE in request.cookies
    if VIEWS.due(code, today()):  # at most one write a day (docs/retention.md)
        await run_in_threadpool(note_view_in, request.app.state.session_factory, code)
    memory = remembered(request)
    etag = memory.etags.get(code)
    if etag is not None and not creator_view:
        headers = page_headers(request, etag)
        if not_modified(request, etag):
            return Response(status_code=304, headers=headers)
    base = public_base(request)
    if etag is not None and not creator_view:
        html = memory.pages.get((code, base))
        if html is not None:
            return HTMLResponse(html, headers=headers)
    return await run_in_threadpool(render_page, request, code, base, creator_view)


router.add_route("/s/{code}", page, methods=["GET"])


def render_page(request: Request, code: str, base: str, creator_view: bool) -> Response:
    owner = False
    with public_session(request) as session:
        shared = store.get_share(session=session, code=code)
        if creator_view and shared is not None and shared.roster_id:
            owner = editable_or_none(request, session, shared.roster_id) is not None
        books = drawn_books(request, session, shared) if shared is not None else None
        if shared is None:
            return no_share_page(request, session, code)
    if books is not None:
        # A list drawn from army books says when a book has a newer version: the page
        # changes then, so it is neither remembered nor served as immutable.
        latest = "-".join(newer.latest for newer in books[1])
        etag = f"{shared.etag}-html-{hashlib.sha256(latest.encode()).hexdigest()[:16]}"
        headers = {
            "ETag": f'"{etag}"',
            "Cache-Control": f"public, max-age={BOOK_MAX_AGE}",
            "Vary": "Cookie",
        }
    else:
        etag = f"{shared.etag}-html"
        remembered(request).etags.put(code, etag)
        headers = page_headers(request, etag)
    if not creator_view and not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    context = share_context(shared, code, base, books, owner)
    if owner:
        # The owner's page says « Modifier »: never kept by a shared cache.
        response = render(request, "share/page.html", context)
        response.headers["Cache-Control"] = "private, no-store"
        response.headers["Vary"] = "Cookie"
        return response
    response = render(request, "share/page.html", context, headers=headers)
    if books is None:
        remembered(request).pages.put((code, base), bytes(response.body))
    return response


def share_context(
    shared: Share,
    code: str,
    base: str,
    books: tuple[dict[int, Origin], list[Newer]] | None,
    owner: bool,
) -> dict[str, Any]:
    """What the share page shows of `shared` (its origins and newer books, when drawn from
    army books; « Modifier » for its owner)."""
    summary = RosterSummary.model_validate(shared.snapshot["summary"])
    share_url = f"{base}/s/{code}"
    context: dict[str, Any] = {
        "s": summary,
        "code": code,
        "share_url": share_url,
        "bbcode": to_bbcode(
            summary, share_url, origin_links(books[0], base) if books is not None else None
        ),
        "og_description": og_description(summary),
        "compact_sheet": opens_compact(summary),
        "created_at": french_date(shared.created_at),
        "catalogue_version": shared.catalogue_version,
        "edit_url": f"/r/{shared.roster_id}" if owner else None,
        "origins": books[0] if books is not None else {},
        "newer_books": books[1] if books is not None else [],
    }
    return context

"""The public share page and its exports: immutable, cacheable, conditional (ETag).

Shares never change, so each process remembers a share's ETag and its rendered page: a
conditional request is answered without the database, a repeated one without rendering.
"""

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse
from sqlmodel import Session

from app.dates import as_utc, french_date
from app.db import SessionDep
from app.exports import TEXT_EXPORTS, to_bbcode
from app.exports.common import Origins
from app.http_cache import Memo, immutable_headers, not_modified
from app.problems import problem_response
from app.store import rosters as store
from app.store.models import Share
from app.store.retention import VIEWS, note_view_in, record_view, today
from app.systems.base import RosterSummary
from app.systems.sheet import opens_compact
from app.urls import public_base
from app.web.access import CARNET_COOKIE
from app.web.deps import editable_or_none
from app.web.render import html_error, render

if TYPE_CHECKING:
    from app.book_service import Newer, Origin

MISSING = "Ce lien de partage n'existe pas."
GONE = (
    "Ce partage a été supprimé : personne ne l'avait consulté depuis longtemps, "
    "ou sa liste a été supprimée."
)
# A share drawn from army books may learn that a book has a newer version (as `/a/{code}`).
BOOK_MAX_AGE = 60


def og_description(summary: RosterSummary) -> str:
    parts = [f"{line.count} × {line.name}" for line in summary.lines[:8]]
    more = len(summary.lines) - 8
    text = ", ".join(parts) + (f" et {more} autre(s)" if more > 0 else "")
    return f"{summary.system_name} — {text}" if text else summary.system_name


def drawn_books(
    request: Request, session: Session, shared: Share, *, newer: bool = True
) -> tuple[dict[int, "Origin"], list["Newer"]] | None:
    """A share drawn from army books: each entry's origin, and (with `newer`) the books
    with a newer published version; None when no entry comes from a book (no lookup)."""
    from app.book_service import BookService, drawn_units

    system = request.app.state.systems.get(shared.snapshot.get("system"))
    document = shared.snapshot.get("roster")
    if system is None or not isinstance(document, dict) or not drawn_units(system, document):
        return None
    books = BookService(session, request.app.state.systems)
    later = books.newer_books(system, document) if newer else []
    return books.entry_origins(system, document), later


def origin_links(origins: Mapping[int, "Origin"], base: str) -> Origins:
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


def page_headers(request: Request, etag: str) -> dict[str, str]:
    """A share page's caching headers: immutable, but per Cookie (a browser whose carnet owns
    the list gets its own page, with « Modifier »; a shared cache must not answer it with
    the public one, issue 29)."""
    return {**immutable_headers(request, etag), "Vary": "Cookie"}


def router() -> APIRouter:
    router = APIRouter(include_in_schema=False)
    # Bounded in bytes: 100,000 ETags weigh ~7 MB; rendered pages at most 32 MB per process.
    etags: Memo[str] = Memo(8 * 1024 * 1024)
    pages: Memo[bytes] = Memo(32 * 1024 * 1024)  # UTF-8, as sent: bytes as they weigh

    @router.get("/s/{code}.{ext}")
    def export(code: str, ext: str, request: Request, session: SessionDep) -> Response:
        record_view(session, code)  # at most one write a day (docs/retention.md)
        shared = store.get_share(session=session, code=code)
        if shared is None and store.share_gone(session=session, code=code):
            if ext == "json":
                return problem_response(
                    410, "This share was removed.", code="share_gone", loc=["path", "code"]
                )
            return html_error(request, 410, GONE)
        if ext == "json" and shared is None:
            # A program's export: a problem like get_share's (issue 28, item 6).
            return problem_response(
                404, "No such share.", code="share_not_found", loc=["path", "code"]
            )
        if shared is None or (ext not in TEXT_EXPORTS and ext != "json"):
            return html_error(request, 404, MISSING)
        etag = f"{shared.etag}-{ext}"
        headers = immutable_headers(request, etag)
        if not_modified(request, etag):
            return Response(status_code=304, headers=headers)
        if ext == "json":
            return JSONResponse(share_json(shared), headers=headers)
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
        etag = etags.get(code)
        if etag is not None and not creator_view:
            headers = page_headers(request, etag)
            if not_modified(request, etag):
                return Response(status_code=304, headers=headers)
        base = public_base(request)
        if etag is not None and not creator_view:
            html = pages.get((code, base))
            if html is not None:
                return HTMLResponse(html, headers=headers)
        return await run_in_threadpool(render_page, request, code, base, creator_view)

    router.add_route("/s/{code}", page, methods=["GET"])

    def render_page(request: Request, code: str, base: str, creator_view: bool) -> Response:
        owner = False
        with request.app.state.session_factory() as session:
            shared = store.get_share(session=session, code=code)
            if creator_view and shared is not None and shared.roster_id:
                owner = editable_or_none(request, session, shared.roster_id) is not None
            books = drawn_books(request, session, shared) if shared is not None else None
            gone = shared is None and store.share_gone(session=session, code=code)
        if shared is None:
            return html_error(request, 410, GONE) if gone else html_error(request, 404, MISSING)
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
            etags.put(code, etag)
            headers = page_headers(request, etag)
        if not creator_view and not_modified(request, etag):
            return Response(status_code=304, headers=headers)
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
        if owner:
            # The owner's page says « Modifier »: never kept by a shared cache.
            response = render(request, "share/page.html", context)
            response.headers["Cache-Control"] = "private, no-store"
            response.headers["Vary"] = "Cookie"
            return response
        response = render(request, "share/page.html", context, headers=headers)
        if books is None:
            pages.put((code, base), bytes(response.body))
        return response

    return router

"""The public share page and its exports: immutable, cacheable, conditional (ETag)."""

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from app.api.v1.rosters import not_modified, share_cache_headers
from app.db import SessionDep
from app.exports import TEXT_EXPORTS, to_bbcode
from app.store import rosters as store
from app.store.models import Share
from app.systems.base import RosterSummary
from app.urls import public_base
from app.web.access import take_edit_link_flash, token_for
from app.web.render import html_error, render


def og_description(summary: RosterSummary) -> str:
    parts = [f"{line.count} × {line.name}" for line in summary.lines[:8]]
    more = len(summary.lines) - 8
    text = ", ".join(parts) + (f" et {more} autre(s)" if more > 0 else "")
    return f"{summary.system_name} — {text}" if text else summary.system_name


def router() -> APIRouter:
    router = APIRouter()

    def load(session: Any, code: str) -> Share | None:
        return store.get_share(session=session, code=code)

    @router.get("/s/{code}.{ext}")
    def export(code: str, ext: str, request: Request, session: SessionDep) -> Response:
        shared = load(session, code)
        if shared is None or (ext not in TEXT_EXPORTS and ext != "json"):
            return html_error(request, 404, "Ce lien de partage n'existe pas.")
        headers = share_cache_headers(request, f"{shared.etag}-{ext}")
        if not_modified(request, f"{shared.etag}-{ext}"):
            return Response(status_code=304, headers=headers)
        if ext == "json":
            return JSONResponse(shared.snapshot, headers=headers)
        media_type, exporter = TEXT_EXPORTS[ext]
        summary = RosterSummary.model_validate(shared.snapshot["summary"])
        url = f"{public_base(request)}/s/{code}"
        return Response(exporter(summary, url), media_type=media_type, headers=headers)

    @router.get("/s/{code}")
    def page(code: str, request: Request, session: SessionDep) -> Response:
        shared = load(session, code)
        if shared is None:
            return html_error(request, 404, "Ce lien de partage n'existe pas.")
        etag = f"{shared.etag}-html"
        creator_view = request.cookies.get("caserne_edit_link") is not None
        if not creator_view and not_modified(request, etag):
            return Response(status_code=304, headers=share_cache_headers(request, etag))
        base = public_base(request)
        summary = RosterSummary.model_validate(shared.snapshot["summary"])
        context = {
            "s": summary,
            "code": code,
            "share_url": f"{base}/s/{code}",
            "bbcode": to_bbcode(summary, f"{base}/s/{code}"),
            "og_description": og_description(summary),
            "created_at": _french_date(shared.created_at),
            "catalogue_version": shared.catalogue_version,
            "edit_link": None,
        }
        if creator_view:
            # The creator's first view after sharing: show the edit link once, never cache it.
            response = render(request, "share/page.html", context)
            roster_id = take_edit_link_flash(request, response, code)
            token = token_for(request, roster_id) if roster_id else None
            if roster_id and token:
                context["edit_link"] = f"{base}/r/{roster_id}/modifier?t={token}"
                response = render(request, "share/page.html", context)
                take_edit_link_flash(request, response, code)
            response.headers["Cache-Control"] = "private, no-store"
            return response
        return render(
            request, "share/page.html", context, headers=share_cache_headers(request, etag)
        )

    return router


MONTHS = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
          "septembre", "octobre", "novembre", "décembre"]  # fmt: skip


def _french_date(moment: datetime) -> str:
    return f"{moment.day} {MONTHS[moment.month - 1]} {moment.year}"

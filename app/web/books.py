"""The public page of a published army book, `/a/{code}`, and its exports (`.bbcode`,
`.md`, `.txt`, `.json`). The version never changes; whether a newer one exists does, so
these pages are cached briefly (as the API's `latest`)."""

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from app.book_service import BookService, NoSuchBookShare
from app.dates import french_date
from app.deps import ReadSessionDep
from app.exports.books import book_bbcode, book_markdown, book_text, present
from app.http_cache import not_modified
from app.problems import problem_response
from app.urls import public_base
from app.web.render import html_error, render

router = APIRouter(include_in_schema=False)

MISSING = "Ce livre publié n'existe pas."
MAX_AGE = 60
EXPORTS = {
    "bbcode": ("text/plain; charset=utf-8", book_bbcode),
    "md": ("text/markdown; charset=utf-8", book_markdown),
    "txt": ("text/plain; charset=utf-8", book_text),
}


def published(request: Request, session: ReadSessionDep, code: str, ext: str) -> Response:
    books = BookService(session, request.app.state.systems)
    try:
        share = books.share(code)
    except NoSuchBookShare:
        if ext == "json":
            # A program's export: a problem like get_book_share's (issue 28, item 6).
            return problem_response(
                404, "No such published book.", code="book_share_not_found", loc=["path", "code"]
            )
        return html_error(request, 404, MISSING)
    body = books.share_body(share)
    etag = f"{share.etag}-{body['latest']}-{ext}"
    headers = {"ETag": f'"{etag}"', "Cache-Control": f"public, max-age={MAX_AGE}"}
    if not_modified(request, etag):
        return Response(status_code=304, headers=headers)
    if ext == "json":
        return JSONResponse(body, headers=headers)
    url = f"{public_base(request)}/a/{code}"
    book = present(request.app.state.systems[share.system], body)
    if ext in EXPORTS:
        media_type, exporter = EXPORTS[ext]
        return Response(exporter(book, url), media_type=media_type, headers=headers)
    context = {
        "b": book,
        "url": url,
        "bbcode": book_bbcode(book, url),
        "created_at": french_date(share.created_at),
    }
    return render(request, "book/page.html", context, headers=headers)


@router.get("/a/{code}.{ext}")
def export(code: str, ext: str, request: Request, session: ReadSessionDep) -> Response:
    if ext not in EXPORTS and ext != "json":
        return html_error(request, 404, MISSING)
    return published(request, session, code, ext)


@router.get("/a/{code}")
def page(code: str, request: Request, session: ReadSessionDep) -> Response:
    return published(request, session, code, "html")

"""How a middleware refuses a request: a French page for people, a problem for programs."""

import html

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import Receive, Scope, Send

from app.problems import FieldError, problem_response


def wants_page(scope: Scope) -> bool:
    """A person's browser (a page or an HTMX fragment), not a program calling /api/."""
    if scope["path"].startswith("/api/"):
        return False
    headers = dict(scope["headers"])
    return b"text/html" in headers.get(b"accept", b"") or headers.get(b"hx-request") == b"true"


def is_htmx(scope: Scope) -> bool:
    return (
        not scope["path"].startswith("/api/")
        and dict(scope["headers"]).get(b"hx-request") == b"true"
    )


# The element of every page (templates/base.html) that shows such a message.
NOTICE_TARGET = "#notice"


def notice(text: str, status: int, headers: dict[str, str] | None = None) -> Response:
    """`text` for the page's notice area: htmx is told to put it there (HX-Retarget,
    HX-Reswap) instead of the element that asked, which keeps what the player typed."""
    body = (
        f"<p>{html.escape(text)} Vos dernières modifications ne sont pas enregistrées : "
        "elles restent dans le formulaire, et partiront à la prochaine modification.</p>"
    )
    return HTMLResponse(
        body,
        status_code=status,
        headers={
            **(headers or {}),
            "HX-Retarget": NOTICE_TARGET,
            "HX-Reswap": "innerHTML",
            "Cache-Control": "no-store",
        },
    )


async def refuse(
    scope: Scope,
    receive: Receive,
    send: Send,
    *,
    status: int,
    code: str,
    detail: str,
    page_detail: str,
    headers: dict[str, str] | None = None,
) -> None:
    response: Response
    if is_htmx(scope):
        # A page's own request (the editor's save): its form must stay as typed, so the
        # answer is a message for the page's notice area, not a page swapped into the form.
        response = notice(page_detail, status, headers)
    elif wants_page(scope):
        # The pages' error renderer, which problems.install() keeps on the app (the
        # middleware answers before any route, under the page layer).
        html_error = scope["app"].state.html_error
        response = html_error(Request(scope, receive), status, page_detail)
        response.headers.update(headers or {})
    else:
        error = FieldError(loc=[], msg=detail, code=code)
        response = problem_response(status, detail, errors=[error], headers=headers)
    await response(scope, receive, send)

"""How a middleware refuses a request: a French page for people, a problem for programs."""

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.problems import FieldError, problem_response


def wants_page(scope: Scope) -> bool:
    """A person's browser (a page or an HTMX fragment), not a program calling /api/."""
    if scope["path"].startswith("/api/"):
        return False
    headers = dict(scope["headers"])
    return b"text/html" in headers.get(b"accept", b"") or headers.get(b"hx-request") == b"true"


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
    if wants_page(scope):
        from app.web.render import html_error  # the templates, only when a page is needed

        response = html_error(Request(scope, receive), status, page_detail)
        response.headers.update(headers or {})
    else:
        error = FieldError(loc=[], msg=detail, code=code)
        response = problem_response(status, detail, errors=[error], headers=headers)
    await response(scope, receive, send)

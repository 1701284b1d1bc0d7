"""Every API error as application/problem+json (RFC 9457); pages get a readable HTML message."""

import logging
import re
from collections.abc import Callable, Sequence
from typing import Any, TypedDict, Unpack

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.security.headers import baseline_headers

log = logging.getLogger("caserne")

PROBLEM_TYPE = "application/problem+json"
TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    412: "Precondition Failed",
    413: "Content Too Large",
    414: "URI Too Long",
    415: "Unsupported Media Type",
    422: "Unprocessable Content",
    428: "Precondition Required",
    429: "Too Many Requests",
    500: "Internal Server Error",
}


# The code of a problem that names no more precise one (docs/api-codes.md lists them all).
DEFAULT_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    412: "precondition_failed",
    413: "too_large",
    414: "query_too_long",
    415: "unsupported_media_type",
    422: "invalid",
    428: "precondition_required",
    429: "rate_limited",
    500: "internal_error",
}


class FieldError(BaseModel):
    loc: list[str | int] = Field(
        description="Where the problem is: `body`, `header`, `path` then keys and indexes; "
        "empty when it is the request as a whole."
    )
    msg: str
    code: str = Field(description="A stable snake_case code from docs/api-codes.md.")


class Problem(BaseModel):
    type: str = "about:blank"
    title: str
    status: int
    detail: str
    errors: list[FieldError] = Field(
        default=[],
        description="At least one entry on every 4xx and 5xx: the first one's `code` says "
        "what went wrong in a program's terms (docs/api-codes.md).",
    )


def problem_response(
    status: int,
    detail: str,
    *,
    errors: Sequence[FieldError] = (),
    headers: dict[str, str] | None = None,
    code: str = "",
    loc: Sequence[str | int] = (),
) -> JSONResponse:
    """A problem answer; without `errors`, one entry carries `code` (else the status's
    default code) at `loc`, so that a program never has to read the English `detail`."""
    if not errors:
        fallback = code or DEFAULT_CODES.get(status, "error")
        errors = [FieldError(loc=list(loc), msg=detail, code=fallback)]
    body = Problem(
        title=TITLES.get(status, "Error"),
        status=status,
        detail=detail,
        errors=list(errors),
    )
    return JSONResponse(
        body.model_dump(), status_code=status, media_type=PROBLEM_TYPE, headers=headers
    )


_MISSING = object()


def sent_loc(loc: Sequence[Any], body: Any, code: str = "") -> list[str | int]:
    """`loc` reduced to the keys and indexes the client sent: pydantic puts in it the union
    branch it tried (`object`, `str`, `function-after[...]`) and a discriminated union's tag
    (the system id, `melee`), which are no part of the document. Each part is kept only where it
    names a key of the object (an index of the list) it is read from; the last part of a
    `missing` error names the absent key, and is kept."""
    parts = [part for part in loc if isinstance(part, str | int)]
    if not parts:
        return []
    kept: list[str | int] = []
    rest = parts
    if parts[0] in ("body", "query", "path", "header", "cookie"):
        kept, rest = [parts[0]], parts[1:]
    node: Any = body
    for position, part in enumerate(rest):
        last = position == len(rest) - 1
        if _has(node, part):
            kept.append(part)
            node = node[part]
        elif isinstance(node, dict | list) and not (last and code == "missing"):
            continue  # a union branch or a tag: never in the document
        else:
            kept.append(part)
    return kept


def _has(node: Any, part: str | int) -> bool:
    if isinstance(node, dict):
        return isinstance(part, str) and part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def loc_path(loc: Sequence[str | int]) -> str:
    """A loc as the contract writes paths: `weapons[0].CdA` (`body` itself is not written)."""
    parts = list(loc)
    if parts and parts[0] == "body":
        parts = parts[1:]
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "body"


def validation_errors(raw: Sequence[Any], body: Any = _MISSING) -> list[FieldError]:
    """pydantic's errors as problem fields; with the parsed `body`, each `loc` is what the
    client sent (see `sent_loc`)."""
    errors = []
    for err in raw:
        code = str(err.get("type", ""))
        loc: list[str | int] = [p for p in err.get("loc", ()) if isinstance(p, str | int)]
        code, loc = _tag_field(err, code, loc)
        if body is not _MISSING and loc and loc[0] == "body":
            loc = sent_loc(loc, body, code)
        errors.append(FieldError(loc=loc, msg=str(err.get("msg", "")), code=code))
    return errors


def _tag_field(err: Any, code: str, loc: list[str | int]) -> tuple[str, list[str | int]]:
    """A discriminated union's refusal said at its tag's field: an unknown `system` is
    `unknown_system` at `["body", "system"]`, a missing tag `missing` there (pydantic puts
    them on the object)."""
    if code not in ("union_tag_invalid", "union_tag_not_found"):
        return code, loc
    field = str((err.get("ctx") or {}).get("discriminator", "")).strip("'")
    if not field.isidentifier():
        return code, loc
    if code == "union_tag_not_found":
        return "missing", [*loc, field]
    return ("unknown_system" if field == "system" else code), [*loc, field]


def problem_detail(errors: Sequence[FieldError]) -> str:
    return "; ".join(f"{loc_path(e.loc)}: {e.msg}" for e in errors[:5])


def validation_problem(raw: Sequence[Any], body: Any = _MISSING) -> JSONResponse:
    """The API's 422 for input pydantic refused (`raw`, its errors; `body`, the parsed
    document when there is one). The heavy workers build it too (app/api/v1/heavy.py)."""
    errors = validation_errors(raw, body)
    return problem_response(422, problem_detail(errors) or "Invalid request.", errors=errors)


def wants_html(request: Request) -> bool:
    return not request.url.path.startswith("/api/") and "text/html" in request.headers.get(
        "accept", ""
    )


def documented_methods(app: FastAPI, path: str) -> list[str]:
    """The methods the OpenAPI document lists for `path` (what Allow must say on a 405)."""
    for template, operations in app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, path):
            return sorted(method.upper() for method in operations)
    return []


class ProblemExtras(TypedDict, total=False):
    """problem_response's keyword arguments, as an ApiError carries them."""

    errors: Sequence[FieldError]
    headers: dict[str, str] | None
    code: str
    loc: Sequence[str | int]


class ApiError(Exception):
    """Raised by the API edges; becomes a problem response (problem_response's arguments)."""

    def __init__(self, status: int, detail: str, **extras: Unpack[ProblemExtras]) -> None:
        self.status = status
        self.detail = detail
        self.extras = extras
        super().__init__(detail)

    @property
    def errors(self) -> list[FieldError]:
        return list(self.extras.get("errors", ()))

    @property
    def headers(self) -> dict[str, str] | None:
        return self.extras.get("headers")


def install(app: FastAPI, html_error: Callable[[Request, int, str], Response]) -> None:
    """Error handlers: problem+json for the API and programs, an HTML page for people.
    `html_error` is also kept on app.state, for the middleware's refusals (they answer
    before any route: app/security/answers.py)."""
    app.state.html_error = html_error

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        if wants_html(request):
            errors = validation_errors(exc.errors(), exc.body)
            return html_error(request, 422, problem_detail(errors))
        return validation_problem(exc.errors(), exc.body)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return problem_response(exc.status, exc.detail, **exc.extras)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if wants_html(request):
            return html_error(request, exc.status_code, str(exc.detail))
        headers = dict(exc.headers or {})
        if exc.status_code == 400 and request.url.path.startswith("/api/"):
            # A body that is not even text (bad UTF-8) is broken JSON like any other.
            error = FieldError(loc=["body"], msg=str(exc.detail), code="json_invalid")
            return problem_response(422, str(exc.detail), errors=[error])
        if exc.status_code == 405:
            allowed = documented_methods(app, request.url.path)
            if allowed:
                headers["Allow"] = ", ".join(allowed)
        return problem_response(exc.status_code, str(exc.detail), headers=headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        if wants_html(request):
            response = html_error(request, 500, "Erreur interne. Votre liste n'a pas été modifiée.")
        else:
            response = problem_response(500, "Internal error.")
        # Starlette sends this answer outside every middleware: the headers come from here.
        for name, value in baseline_headers():
            response.headers.setdefault(name.decode(), value.decode())
        # Starlette re-raises after sending it, and uvicorn then closes the connection:
        # announce it, or a client's next request on the kept-alive connection is lost.
        response.headers["Connection"] = "close"
        return response

"""ASGI middleware: the request body limit, gzip's settings, access logs without secrets."""

import asyncio
import json
import logging
import re
import weakref
import zlib
from typing import Any

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.problems import PROBLEM_TYPE, TITLES
from app.security.answers import refuse, wants_page
from app.security.tokens import mask_secrets

# GZipMiddleware's settings (app/main.py): HTML, CSS, JS and JSON over 500 bytes leave
# compressed at level 4 (most of level 9's gain for a fraction of its CPU). The heavy
# workers compress their answers the same way (app/api/v1/heavy.py).
GZIP_LEVEL = 4
GZIP_MINIMUM_BYTES = 500


def accepts_gzip(headers: Headers) -> bool:
    """Starlette's GZipMiddleware's test of a request."""
    return "gzip" in headers.get("accept-encoding", "")


def gzipped(body: bytes) -> bytes:
    """`body` as GZipMiddleware compresses a whole answer (the same zlib stream)."""
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return compressor.compress(body) + compressor.flush()


# Public views of a gang's ledger (its page, its battles in the API) cost tens of ms of CPU
# with a long history, holding the GIL all along: four at once stalled every other request
# of the process (a roster read's p99 183 ms, bench/ledger_bench.py; issue 25). At most
# LEDGER_VIEWS_AT_ONCE run at a time in a process; the others wait their turn on the event
# loop, holding no thread.
LEDGER_VIEWS = re.compile(r"/campagne/gang/[^/]+|/api/v1/rosters/[^/]+/battles")
LEDGER_VIEWS_AT_ONCE = 1


class LedgerViewsInTurn:
    """Lets LEDGER_VIEWS_AT_ONCE ledger views (GET LEDGER_VIEWS) run at once, the others in
    arrival order; every other request passes straight through."""

    def __init__(self, app: ASGIApp, at_once: int = LEDGER_VIEWS_AT_ONCE) -> None:
        self.app = app
        self.at_once = at_once
        # One gate per event loop (a test client runs a loop of its own).
        self._gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore]
        self._gates = weakref.WeakKeyDictionary()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope.get("method") != "GET"
            or not LEDGER_VIEWS.fullmatch(scope.get("path", ""))
        ):
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        gate = self._gates.get(loop)
        if gate is None:
            gate = self._gates[loop] = asyncio.Semaphore(self.at_once)
        async with gate:
            await self.app(scope, receive, send)


class BodyLimit:
    """Refuses bodies over `max_bytes` with a 413 problem before the app reads them, and
    query strings over `max_query_bytes` with a 414 before anything parses them (FastAPI
    reads the query of every route: a 16 KB one of `%26` cost 2 ms of unquoting each)."""

    def __init__(self, app: ASGIApp, max_bytes: int, max_query_bytes: int = 2048) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.max_query_bytes = max_query_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and len(scope["query_string"]) > self.max_query_bytes:
            await refuse(
                scope,
                receive,
                send,
                status=414,
                code="query_too_long",
                detail=f"The query string is longer than {self.max_query_bytes} bytes.",
                page_detail="Cette adresse est trop longue pour être une adresse de Caserne.",
            )
            return
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS", "DELETE"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        if wants_page(scope):
            # A person's form (a carnet file too heavy, issue 30): said in French.
            kilobytes = self.max_bytes // 1000
            await refuse(
                scope,
                receive,
                send,
                status=413,
                code="body_too_large",
                detail=f"The request body is larger than {self.max_bytes} bytes.",
                page_detail=f"Ce fichier ou ce formulaire est trop lourd : au plus {kilobytes} ko.",
                headers={"Connection": "close"},
            )
            return
        body = json.dumps(
            {
                "type": "about:blank",
                "title": TITLES[413],
                "status": 413,
                "detail": f"The request body is larger than {self.max_bytes} bytes.",
                "errors": [
                    {
                        "loc": ["body"],
                        "msg": f"body over {self.max_bytes} bytes",
                        "code": "body_too_large",
                    }
                ],
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", PROBLEM_TYPE.encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


# An Authorization header or a bearer credential, however a message came to hold one.
_AUTHORIZATION = re.compile(
    r"(?i)(?P<name>\bauthorization\b[\"']?\s*[:=,]\s*[\"']?)(?P<value>[^\"'\r\n,)}]+)"
    r"|(?P<scheme>\bbearer\s+)(?P<credential>[A-Za-z0-9._~+/=-]+)"
)
# An edit token on its own (secrets.token_urlsafe(32): 43 URL-safe characters), e.g. in a
# path: /r/{id}/modifier/<token> would still be masked.
_BARE_TOKEN = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
MASK = "[masqué]"


def redact(text: str) -> str:
    """`text` without edit tokens (query parameters, however encoded; bare tokens) and
    without Authorization values."""
    text = mask_secrets(text, MASK)
    lowered = text.lower()
    if "authorization" in lowered or "bearer" in lowered:  # spares the pattern most lines
        text = _AUTHORIZATION.sub(
            lambda m: f"{m['name']}{MASK}" if m["name"] else f"{m['scheme']}{MASK}", text
        )
    return _BARE_TOKEN.sub(MASK, text)


class RedactTokens(logging.Filter):
    """Edit tokens travel in /r/{id}/modifier?t=... and Authorization headers: keep them out
    of the logs, whatever the encoding (?%74=, ?T=, %3F in a path, double encoding)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                key: redact(value) if isinstance(value, str) else value
                for key, value in record.args.items()
            }
        record.msg = redact(str(record.msg))
        return True


# The loggers that may see a URL or a header: uvicorn's access and error logs, the app's.
REDACTED_LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "caserne", "fastapi")


def redact_access_log() -> None:
    for name in REDACTED_LOGGERS:
        logger: Any = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())

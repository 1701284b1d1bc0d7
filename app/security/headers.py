"""Security headers on every response: CSP, nosniff, no framing, referrer, private caching.

A small middleware rather than a library such as `secure`: what Caserne needs depends on
the request (no referrer where a URL can carry an edit token, no caching of the editor, the
API docs page's own CSP), and the fixed part is a handful of constant strings.
"""

import base64
import hashlib
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.security.hosts import HOST_CHECKED
from app.security.tokens import carries_secret

# Scripts only from our origin, never inline. `style-src-attr 'unsafe-inline'` allows style
# *attributes* (the points bar's `style="width: 40%"`) but no <style> element.
PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
# Swagger UI (vendored in static/swagger-ui/) starts with one inline script, allowed by its
# hash (computed from the page served, so it never drifts).
DOCS_CSP = (
    "default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
FIXED: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
# URLs whose query may hold an edit token, or which are the edit link itself.
TOKEN_PATH = re.compile(r"^/r/[^/]+/modifier/?$")
# The editor, the edit link, "Mes listes", and the systems' catalogue and creator pages
# (their "add to a list" offers the browser's own lists): private to the browser that holds
# the cookies, never kept by a shared cache.
PRIVATE_PATH = re.compile(r"^/(r/|listes(/|$)|[^/]+/(catalogue|createur)(/|$))")
# Any other page that shows the browser's lists (the join page of a campaign, a book's
# page...) says so through `keep_private`: the scope holds this list, which it appends to.
PRIVATE_MARK = "caserne.private"
_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def keep_private(scope: Scope) -> None:
    """The answer to this request shows what only this browser may see (its lists): it
    gets `Cache-Control: private, no-store` unless the route set its own."""
    marks = scope.get(PRIVATE_MARK)
    if isinstance(marks, list):
        marks.append(True)


def script_hashes(html: bytes) -> str:
    """CSP sources allowing exactly the inline scripts of `html`."""
    return " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"
        for body in _INLINE_SCRIPT.findall(html)
    )


def baseline_headers() -> list[tuple[bytes, bytes]]:
    """What every response gets, also those built outside the middleware (500s)."""
    return [
        *FIXED,
        (b"content-security-policy", PAGE_CSP.encode()),
        (b"referrer-policy", b"same-origin"),
    ]


class SecurityHeaders:
    """Adds the headers a response lacks; a header the route set wins."""

    def __init__(self, app: ASGIApp, *, docs_paths: tuple[str, ...] = ("/api/docs",)) -> None:
        self.app = app
        self.docs_paths = docs_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path in self.docs_paths:
            await self.app(scope, receive, _DocsPage(send))
            return
        extra: list[tuple[bytes, bytes]] = [*FIXED, (b"content-security-policy", PAGE_CSP.encode())]
        if PRIVATE_PATH.match(path):
            extra.append((b"cache-control", b"private, no-store"))
        checked: list[bool] = []
        private: list[bool] = []

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                if private and not PRIVATE_PATH.match(path):
                    extra.append((b"cache-control", b"private, no-store"))
                # The query is read only for a request known to be for this host (a refused
                # one gets no-referrer unread): a hostile query costs nothing before that.
                secret = (
                    not checked
                    or TOKEN_PATH.match(path) is not None
                    or carries_secret(scope["query_string"])
                )
                referrer = (b"referrer-policy", b"no-referrer" if secret else b"same-origin")
                message["headers"] = _merged(message.get("headers", []), [*extra, referrer])
            await send(message)

        scope = {**scope, HOST_CHECKED: checked, PRIVATE_MARK: private}
        await self.app(scope, receive, send_with_headers)


def _merged(
    headers: list[tuple[bytes, bytes]], extra: list[tuple[bytes, bytes]]
) -> list[tuple[bytes, bytes]]:
    present = {name.lower() for name, _ in headers}
    return [*headers, *((name, value) for name, value in extra if name not in present)]


class _DocsPage:
    """Holds the docs page back until its body is known, to hash its inline script."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.start: Message | None = None
        self.body = b""

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.start = message
            return
        if message["type"] != "http.response.body" or self.start is None:
            await self.send(message)
            return
        self.body += message.get("body", b"")
        if message.get("more_body", False):
            return
        csp = DOCS_CSP.format(hashes=script_hashes(self.body))
        extra = [
            *FIXED,
            (b"content-security-policy", csp.encode()),
            (b"referrer-policy", b"same-origin"),
        ]
        self.start["headers"] = _merged(self.start.get("headers", []), extra)
        await self.send(self.start)
        await self.send({"type": "http.response.body", "body": self.body})

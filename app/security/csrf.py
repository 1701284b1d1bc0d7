"""CSRF: a cookie-authenticated write must come from one of Caserne's own pages.

The browser says where a request comes from: `Sec-Fetch-Site` (same-origin or none are
ours), else `Origin` (must be this site's origin: PUBLIC_URL's, else the request's own).
Where a browser sends neither (very old ones), a request carrying a carnet (or an old
roster) cookie must carry a token: the `csrf` form field or the `X-CSRF-Token` header
equal to the `caserne_csrf` cookie (double submit). Templates get it from `csrf_token()`,
which also makes the response set that cookie. The JSON API authenticates with a Bearer
header, never a cookie, and is left alone.
"""

import hmac
import re
import secrets
from http.cookies import SimpleCookie
from typing import Any

from jinja2 import Environment, pass_context
from markupsafe import Markup
from starlette.responses import RedirectResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.security.answers import refuse, wants_page
from app.security.body import form_field, read_body, replay
from app.security.cookies import holds_access_cookie
from app.security.hosts import normalized_netloc

# Writes posted from a page cached for everyone (no per-browser token in it): refused ones
# are sent to the GET of the same path, a form of their own with the token.
CONFIRMED_BY_FORM = re.compile(r"/s/[^/]+/dupliquer")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
COOKIE = "caserne_csrf"
FIELD = "csrf"
HEADER = b"x-csrf-token"
STATE_KEY = "csrf"
ONE_YEAR = 365 * 24 * 3600


class CsrfToken:
    """This browser's token: the cookie's, or a new one set on the response if a page asks.
    Nothing is parsed or drawn unless a template asks (the share page's hot path)."""

    def __init__(self, scope: Scope) -> None:
        self.scope = scope
        self.issued: str | None = None

    @property
    def value(self) -> str:
        if self.issued is None:
            existing = cookies_of(self.scope).get(COOKIE)
            if existing:
                return existing
            self.issued = secrets.token_urlsafe(32)
        return self.issued


def cookies_of(scope: Scope) -> dict[str, str]:
    raw = b"; ".join(v for k, v in scope["headers"] if k == b"cookie").decode("latin-1")
    if not raw:
        return {}
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed Cookie header holds no usable token
        return {}
    return {name: morsel.value for name, morsel in jar.items()}


class CsrfGuard:
    """Refuses cross-site writes to the HTML routes with 403."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(("/api/", "/static/")):
            await self.app(scope, receive, send)
            return
        if scope["method"] in SAFE_METHODS:
            await self._serve_with_token(scope, receive, send)
            return
        headers = dict(scope["headers"])
        site = headers.get(b"sec-fetch-site")
        origin = headers.get(b"origin")
        if site is not None:
            allowed = site in (b"same-origin", b"none")
        elif origin is not None:
            allowed = _same_origin(scope, origin.decode("latin-1"))
        else:
            allowed, receive = await self._token_or_no_cookie(scope, receive)
        if allowed:
            await self._serve_with_token(scope, receive, send)
            return
        if CONFIRMED_BY_FORM.fullmatch(scope["path"]) and wants_page(scope):
            # The cached share page's form cannot carry this browser's token: its own
            # form, with the token, asks again (a forged post only ever lands there).
            await RedirectResponse(scope["path"], status_code=303)(scope, receive, send)
            return
        await refuse(
            scope,
            receive,
            send,
            status=403,
            code="cross_site",
            detail="Cross-site request refused: send it from Caserne's own pages.",
            page_detail="Requête refusée : elle ne vient pas d'une page de Caserne. "
            "Rechargez la page et recommencez.",
        )

    async def _token_or_no_cookie(self, scope: Scope, receive: Receive) -> tuple[bool, Receive]:
        """No Sec-Fetch-Site nor Origin: a token is needed only where a roster cookie rides."""
        cookies = cookies_of(scope)
        if not holds_access_cookie(cookies):
            return True, receive
        expected = cookies.get(COOKIE)
        if not expected:
            return False, receive
        sent = dict(scope["headers"]).get(HEADER)
        if sent is not None:
            return hmac.compare_digest(sent, expected.encode()), receive
        body, messages = await read_body(receive)
        field = await form_field(scope, body, FIELD)
        ok = field is not None and hmac.compare_digest(field.encode(), expected.encode())
        return ok, replay(messages, receive)

    async def _serve_with_token(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = CsrfToken(scope)
        scope.setdefault("state", {})[STATE_KEY] = token

        async def send_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and token.issued is not None:
                secure = "; Secure" if scope.get("scheme") == "https" else ""
                cookie = (
                    f"{COOKIE}={token.issued}; Path=/; Max-Age={ONE_YEAR}; "
                    f"HttpOnly; SameSite=Lax{secure}"
                )
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie.encode())]
            await send(message)

        await self.app(scope, receive, send_cookie)


def _same_origin(scope: Scope, origin: str) -> bool:
    host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
    scheme = str(scope.get("scheme", "http"))
    expected = f"{scheme}://{normalized_netloc(scheme, host)}"
    if "://" not in origin:
        return False  # "null" (sandboxed frames, data: URLs) and garbage
    sent_scheme, _, sent_netloc = origin.partition("://")
    sent_scheme = sent_scheme.lower()
    return f"{sent_scheme}://{normalized_netloc(sent_scheme, sent_netloc)}" == expected


@pass_context
def csrf_token(context: Any) -> str:
    """The token for a form's hidden `csrf` field or an `X-CSRF-Token` header."""
    request = context.get("request")
    holder = request.scope.get("state", {}).get(STATE_KEY) if request is not None else None
    return holder.value if isinstance(holder, CsrfToken) else ""


@pass_context
def csrf_input(context: Any) -> Markup:
    """`<input type="hidden" name="csrf" value="...">` for a form that posts."""
    token = csrf_token(context)
    return Markup('<input type="hidden" name="{}" value="{}">').format(FIELD, token)


def install_template_globals(env: Environment) -> None:
    env.globals["csrf_token"] = csrf_token
    env.globals["csrf_input"] = csrf_input

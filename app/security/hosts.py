"""One canonical origin: PUBLIC_URL when set, else only the Host values ALLOWED_HOSTS lists.

The Host header ends up in share links, exports, redirects and cache keys. With PUBLIC_URL
set, every request is rewritten to PUBLIC_URL's scheme and host before any route sees it,
so nothing can reflect what a client sent; without it, Starlette's TrustedHostMiddleware
answers 400 to any other host.
"""

from urllib.parse import urlsplit

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send


def origin_of(url: str) -> tuple[str, str]:
    """(scheme, host[:port]) of an absolute URL, the port dropped when it is the default."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, normalized_netloc(scheme, parts.netloc)


def normalized_netloc(scheme: str, netloc: str) -> str:
    netloc = netloc.lower().rsplit("@", 1)[-1]
    default = {"http": ":80", "https": ":443"}.get(scheme)
    if default and netloc.endswith(default):
        netloc = netloc[: -len(default)]
    return netloc


class CanonicalHost:
    """PUBLIC_URL's origin for every request when it is set; else a Host allow-list."""

    def __init__(self, app: ASGIApp, *, public_url: str, allowed_hosts: list[str]) -> None:
        self.app = app
        self.public: tuple[str, bytes] | None = None
        if public_url:
            scheme, netloc = origin_of(public_url)
            if scheme not in ("http", "https") or not netloc:
                raise ValueError(f"PUBLIC_URL must be an absolute http(s) URL, not {public_url!r}")
            self.public = (scheme, netloc.encode())
            self.checked: ASGIApp = app
        else:
            self.checked = TrustedHostMiddleware(
                app, allowed_hosts=allowed_hosts or ["localhost"], www_redirect=False
            )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.public is None or scope["type"] not in ("http", "websocket"):
            await self.checked(scope, receive, send)
            return
        scheme, netloc = self.public
        headers = [(k, v) for k, v in scope["headers"] if k != b"host"]
        headers.append((b"host", netloc))
        if scope["type"] == "websocket":
            scheme = "wss" if scheme == "https" else "ws"
        await self.app({**scope, "scheme": scheme, "headers": headers}, receive, send)

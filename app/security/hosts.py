"""One canonical origin: PUBLIC_URL when set, else only the Host values ALLOWED_HOSTS lists.

The Host header ends up in share links, exports, redirects and cache keys. With PUBLIC_URL
set, every request is rewritten to PUBLIC_URL's scheme and host before any route sees it,
so nothing can reflect what a client sent; without it, Starlette's TrustedHostMiddleware
answers 400 to any other host, and a port is answered only when it is a default one (80,
443), the one the server listens on, or one ALLOWED_HOSTS gives that host ("host:8080"):
every port would otherwise be a new origin in links and a new key in the page memory.
"""

from urllib.parse import urlsplit

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

# Set in the scope (a one-item list shared by the scope's copies) once the request is known
# to be for this service: the security headers read the query only then.
HOST_CHECKED = "caserne.host_checked"
DEFAULT_PORTS = frozenset({"", "80", "443"})


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


def split_host(value: str) -> tuple[str, str]:
    """(host, port) of a Host header value; port "" when absent. IPv6 stays bracketed."""
    value = value.strip().lower()
    if value.startswith("["):
        host, _, rest = value.partition("]")
        return host + "]", rest[1:] if rest.startswith(":") else rest
    host, _, port = value.partition(":")
    return host, port


def host_patterns(allowed_hosts: list[str]) -> tuple[list[str], dict[str, frozenset[str]]]:
    """The host patterns (ports dropped) for TrustedHostMiddleware, and each one's ports."""
    patterns: list[str] = []
    ports: dict[str, set[str]] = {}
    for entry in allowed_hosts or ["localhost"]:
        host, port = split_host(entry) if entry != "*" else ("*", "")
        if host not in ports:
            patterns.append(host)
            ports[host] = set()
        if port:
            ports[host].add(port)
    return patterns, {host: frozenset(extra) for host, extra in ports.items()}


def matches(pattern: str, host: str) -> bool:
    if pattern == "*":
        return True
    if pattern.startswith("*"):
        return host.endswith(pattern[1:])
    return host == pattern


class _Mark:
    """Records in the scope that the host check passed, then runs the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope.get(HOST_CHECKED)
        if isinstance(checked, list):
            checked.append(True)
        await self.app(scope, receive, send)


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
            self.app = _Mark(app)
            self.checked: ASGIApp = self.app
            self.ports: dict[str, frozenset[str]] = {}
        else:
            patterns, self.ports = host_patterns(allowed_hosts)
            self.checked = TrustedHostMiddleware(
                _Mark(app), allowed_hosts=patterns, www_redirect=False
            )

    def port_allowed(self, scope: Scope) -> bool:
        """Whether the Host header's port is a default one, the server's or a listed one."""
        value = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        host, port = split_host(value)
        if port in DEFAULT_PORTS:
            return True
        server = scope.get("server")
        if server and str(server[1]) == port:
            return True
        listed = self.ports.items()
        return any(port in extra and matches(pattern, host) for pattern, extra in listed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.public is None or scope["type"] not in ("http", "websocket"):
            if scope["type"] == "http" and self.public is None and not self.port_allowed(scope):
                await PlainTextResponse("Invalid host header", status_code=400)(
                    scope, receive, send
                )
                return
            await self.checked(scope, receive, send)
            return
        scheme, netloc = self.public
        headers = [(k, v) for k, v in scope["headers"] if k != b"host"]
        headers.append((b"host", netloc))
        if scope["type"] == "websocket":
            scheme = "wss" if scheme == "https" else "ws"
        await self.app({**scope, "scheme": scheme, "headers": headers}, receive, send)

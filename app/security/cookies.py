"""What the browser keeps: one carnet cookie (HttpOnly), whatever the number of lists.

Before carnets the browser kept one cookie per roster (`caserne_r_<id>`, its edit token);
app/web/deps.py verifies those on a browser's first visit, puts their lists in its carnet
and removes them.
"""

from collections.abc import Iterable

from fastapi import Request, Response

from app.roster_service import Refusal

CARNET_COOKIE = "caserne_carnet"
COOKIE_PREFIX = "caserne_r_"  # the old per-roster cookies, read only to move them
ONE_YEAR = 365 * 24 * 3600
# At most this many old cookies are moved in one visit (Chromium keeps 180 per site).
LEGACY_MAX = 200


def cookie_name(roster_id: str) -> str:
    return f"{COOKIE_PREFIX}{roster_id}"


def keep_carnet(request: Request, response: Response, value: str) -> None:
    response.set_cookie(
        CARNET_COOKIE,
        value,
        max_age=ONE_YEAR,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def forget_carnet(response: Response) -> None:
    response.delete_cookie(CARNET_COOKIE, path="/", httponly=True, samesite="lax")


def legacy_tokens(request: Request) -> dict[str, str]:
    """The old per-roster cookies this browser still sends: roster id → edit token."""
    found = {
        name.removeprefix(COOKIE_PREFIX): token
        for name, token in request.cookies.items()
        if name.startswith(COOKIE_PREFIX)
    }
    return dict(list(found.items())[:LEGACY_MAX])


def forget_legacy(response: Response, roster_id: str) -> None:
    response.delete_cookie(cookie_name(roster_id), path="/", httponly=True, samesite="lax")


def holds_access_cookie(names: Iterable[object]) -> bool:
    """Whether a request's cookies may authorize a write (the CSRF guard asks)."""
    return any(
        isinstance(name, str) and (name == CARNET_COOKIE or name.startswith(COOKIE_PREFIX))
        for name in names
    )


class CarnetRevoked(Refusal):
    """The browser's carnet cookie no longer opens its carnet (its key was changed)."""


class NotInBrowser(Refusal):
    """This browser's carnet does not hold the roster a page asks for."""

"""Who may edit a roster in the browser: its edit token, kept in an HttpOnly cookie."""

from fastapi import Request, Response

COOKIE_PREFIX = "caserne_r_"
FLASH_COOKIE = "caserne_edit_link"
ONE_YEAR = 365 * 24 * 3600


def cookie_name(roster_id: str) -> str:
    return f"{COOKIE_PREFIX}{roster_id}"


def remember(request: Request, response: Response, roster_id: str, token: str) -> None:
    response.set_cookie(
        cookie_name(roster_id),
        token,
        max_age=ONE_YEAR,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def token_for(request: Request, roster_id: str) -> str | None:
    return request.cookies.get(cookie_name(roster_id))


def my_roster_ids(request: Request) -> list[str]:
    return [
        name.removeprefix(COOKIE_PREFIX)
        for name in request.cookies
        if name.startswith(COOKIE_PREFIX)
    ]


def flash_edit_link(request: Request, response: Response, code: str, roster_id: str) -> None:
    """Marks the next view of /s/{code} as the creator's: it shows the edit link once."""
    response.set_cookie(
        FLASH_COOKIE,
        roster_id,
        max_age=300,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path=f"/s/{code}",
    )


def forget_edit_link_flash(response: Response, code: str) -> None:
    response.delete_cookie(FLASH_COOKIE, path=f"/s/{code}")

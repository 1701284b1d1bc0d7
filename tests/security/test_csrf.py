"""CSRF: cookie-authenticated writes from another origin are refused (issue 10, finding 3)."""

import html
from collections.abc import Callable

import pytest
from fastapi import Request
from fastapi.testclient import TestClient

from tests.security.helpers import html_roster
from tests.web.conftest import field

SAME = {"Sec-Fetch-Site": "same-origin"}


def roster_name(client: TestClient, roster_id: str) -> str:
    page = client.get(f"/r/{roster_id}").text
    return page.split('name="name"', 1)[1].split('value="', 1)[1].split('"', 1)[0]


def rename(client: TestClient, roster_id: str, headers: dict[str, str], **data: str) -> int:
    version = field(client.get(f"/r/{roster_id}").text, "version")
    form = {"name": "Piégée", "version": version, **data}
    return client.post(f"/r/{roster_id}", data=form, headers=headers).status_code


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},  # another port or a sibling subdomain
        {"Origin": "http://evil.example"},
        {"Origin": "http://testserver:8080"},
        {"Origin": "https://testserver"},
        {"Origin": "null"},
        {},  # no header at all, no token
        {"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"},
    ],
)
def test_cross_site_writes_are_refused(client: TestClient, headers: dict[str, str]) -> None:
    client.follow_redirects = False
    roster_id = html_roster(client)
    assert rename(client, roster_id, headers) == 403
    adding = client.post(
        "/listes/ajouter",
        data={"system": "dcsystem", "add-unit": "jaffa", "roster": roster_id},
        headers=headers,
    )
    assert adding.status_code == 403
    assert roster_name(client, roster_id) != "Piégée"


def test_the_refusal_is_a_french_page_for_a_browser(client: TestClient) -> None:
    roster_id = html_roster(client)
    response = client.post(
        f"/r/{roster_id}",
        data={"name": "x"},
        headers={"Sec-Fetch-Site": "cross-site", "Accept": "text/html"},
    )
    assert response.status_code == 403
    assert "ne vient pas d'une page de Caserne" in html.unescape(response.text)
    problem = client.post(f"/r/{roster_id}", headers={"Sec-Fetch-Site": "cross-site"})
    assert problem.headers["content-type"] == "application/problem+json"
    assert problem.json()["errors"][0]["code"] == "cross_site"


@pytest.mark.parametrize(
    "headers",
    [
        SAME,
        {"Sec-Fetch-Site": "none"},  # typed in the address bar, a bookmark
        {"Origin": "http://testserver"},
        {"Origin": "http://testserver:80"},
    ],
)
def test_same_origin_writes_pass(client: TestClient, headers: dict[str, str]) -> None:
    roster_id = html_roster(client)
    assert rename(client, roster_id, headers) == 200
    assert roster_name(client, roster_id) == "Piégée"


def test_without_either_header_the_double_submit_token_passes(client: TestClient) -> None:
    roster_id = html_roster(client)
    token = client.cookies.get("caserne_csrf")
    assert token is None  # set only once a page asks for it
    client.get("/", headers={"Accept": "text/html"})
    # The cookie comes with a page whose template calls csrf_token() (the home page's forms).
    from app.security.csrf import COOKIE

    mine = client.cookies.get(COOKIE)
    if mine is None:  # no form asked for it: simulate a page that does
        mine = "t0ken-of-this-browser"
        client.cookies.set(COOKIE, mine)
    assert rename(client, roster_id, {}, csrf=mine) == 200
    assert rename(client, roster_id, {"X-CSRF-Token": mine}) == 200
    assert rename(client, roster_id, {}, csrf="another") == 403
    assert rename(client, roster_id, {"X-CSRF-Token": "another"}) == 403


def test_a_template_gets_the_token_and_the_cookie_follows(
    make_client: Callable[..., TestClient],
) -> None:
    from app.web.render import templates

    client = make_client()

    @client.app.get("/csrf-probe")  # type: ignore[attr-defined]
    def probe(request: Request) -> str:
        return templates.env.from_string("{{ csrf_input() }}|{{ csrf_token() }}").render(
            request=request
        )

    client.app.router.routes.insert(0, client.app.router.routes.pop())  # type: ignore[attr-defined]
    body = client.get("/csrf-probe").json()
    field, token = body.split("|")
    assert field == f'<input type="hidden" name="csrf" value="{token}">'
    assert client.cookies.get("caserne_csrf") == token
    assert client.get("/csrf-probe").json().split("|")[1] == token  # stable


def test_writes_that_need_no_cookie_pass_without_headers(client: TestClient) -> None:
    """A program or an old browser may still create a list: no cookie, nothing to forge."""
    client.follow_redirects = False
    assert client.post("/listes", data={"system": "dcsystem"}).status_code == 303


def test_the_json_api_is_left_alone(client: TestClient) -> None:
    response = client.post(
        "/api/v1/rosters",
        json={"system": "dcsystem", "name": "x"},
        headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
    )
    assert response.status_code == 201


def test_with_public_url_the_origin_must_be_public_url(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(base_url="https://testserver", public_url="https://caserne.example")
    roster_id = html_roster(client)
    assert rename(client, roster_id, {"Origin": "https://caserne.example"}) == 200
    assert rename(client, roster_id, {"Origin": "http://testserver"}) == 403


def test_an_old_browser_duplicates_a_cached_share_through_its_own_form(
    client: TestClient,
) -> None:
    """Issue 13, finding 8: the share page is cached for everyone, so its « Dupliquer » form
    carries no token; a browser sending neither Sec-Fetch-Site nor Origin and holding a list
    cookie was refused (403). It is now sent to a form of its own, with its token."""
    roster_id = html_roster(client)
    page = client.get(f"/r/{roster_id}", headers={"Accept": "text/html"}).text
    shared = client.post(
        f"/r/{roster_id}",
        data={"action": "share", "version": field(page, "version"), "csrf": field(page, "csrf")},
        headers={"Sec-Fetch-Site": "same-origin"},
        follow_redirects=False,
    )
    code = str(shared.headers["location"]).split("/")[2]
    page_headers = {"Accept": "text/html"}  # an old browser: no Sec-Fetch-Site, no Origin
    asked = client.post(f"/s/{code}/dupliquer", headers=page_headers, follow_redirects=False)
    assert asked.status_code == 303
    assert asked.headers["location"] == f"/s/{code}/dupliquer"
    confirm = client.get(f"/s/{code}/dupliquer", headers=page_headers)
    assert confirm.status_code == 200
    assert confirm.headers["cache-control"] == "private, no-store"
    token = field(confirm.text, "csrf")
    done = client.post(
        f"/s/{code}/dupliquer", data={"csrf": token}, headers=page_headers, follow_redirects=False
    )
    assert done.status_code == 303
    assert done.headers["location"].startswith("/r/")
    assert done.headers["location"] != f"/r/{roster_id}"
    # A forged post (a wrong token) only ever reaches that form, never a copy.
    forged = client.post(
        f"/s/{code}/dupliquer", data={"csrf": "x"}, headers=page_headers, follow_redirects=False
    )
    assert forged.status_code == 303 and forged.headers["location"] == f"/s/{code}/dupliquer"

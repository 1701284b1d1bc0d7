"""Page tests drive the app like a browser without JavaScript: forms, cookies, redirects."""

import html
import re

import pytest
from fastapi.testclient import TestClient


@pytest.fixture
def browser(client: TestClient) -> TestClient:
    client.follow_redirects = False
    # What every current browser says of a request made by a page of the same site (the
    # CSRF guard refuses cookie-authenticated writes that do not say where they come from).
    client.headers["Sec-Fetch-Site"] = "same-origin"
    return client


def field(page: str, name: str) -> str:
    """The value of the input called `name` in an HTML page."""
    match = re.search(rf"name=\"{re.escape(name)}\"[^>]*? value=\"([^\"]*)\"", page)
    assert match, name
    return html.unescape(match.group(1))

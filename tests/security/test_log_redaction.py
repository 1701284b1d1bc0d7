"""Tokens never reach the logs, whatever the encoding (issue 10, finding 7)."""

import logging

import pytest
from fastapi.testclient import TestClient

from app.middleware import RedactTokens, redact

TOKEN = "Zq3vX0pL8sYtKc2mWn5bR7dHf1gJ4aE6uI9oP0lQwEr"  # 43 characters, like a real one


def access_line(path: str) -> str:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", path, "1.1", 303),
        None,
    )
    RedactTokens().filter(record)
    return record.getMessage()


@pytest.mark.parametrize(
    "path",
    [
        "/r/abc/modifier?t=SECRET",
        "/r/abc/modifier?%74=SECRET",  # the bypass of finding 7
        "/r/abc/modifier?%2574=SECRET",  # encoded twice
        "/r/abc/modifier?T=SECRET",
        "/r/abc/modifier?Token=SECRET",
        "/r/abc/modifier?x=1&t=SECRET&y=2",
        "/r/abc/modifier?x=1;t=SECRET",
        "/r/abc/modifier?t=SEC%52ET",  # a percent-encoded value
        "/r/abc/modifier?t%3DSECRET",  # an encoded `=`
        "/r/abc/modifier%3Ft=SECRET",  # a `?` that reached the path
        "/r/abc/modifier?x=1%26t=SECRET",  # an encoded `&`
        "/r/abc/modifier?edit_token=SECRET",
        "/r/abc/modifier?t+=SECRET",
    ],
)
def test_query_tokens_are_masked(path: str) -> None:
    line = access_line(path)
    assert "SECRET" not in line and "SEC%52ET" not in line
    assert "[masqué]" in line


def test_other_parameters_are_kept() -> None:
    assert access_line("/s/abc?tab=1&at=2&t2=3").endswith(
        '"GET /s/abc?tab=1&at=2&t2=3 HTTP/1.1" 303'
    )
    assert "/r/abc/modifier?t=[masqué]&x=1" in access_line("/r/abc/modifier?t=SECRET&x=1")


def test_tokens_in_paths_are_masked() -> None:
    assert TOKEN not in access_line(f"/r/abc/modifier/{TOKEN}")
    assert TOKEN not in access_line(f"/r/{TOKEN}")


@pytest.mark.parametrize(
    "message",
    [
        f"headers: {{'authorization': 'Bearer {TOKEN}'}}",
        f"Authorization: Bearer {TOKEN}",
        "AUTHORIZATION=bearer short-secret",
        "sent bearer short-secret to the API",
        "[(b'authorization', b'Bearer short-secret')]",
    ],
)
def test_authorization_values_are_masked(message: str) -> None:
    masked = redact(message)
    assert TOKEN not in masked and "short-secret" not in masked, masked


def test_the_filter_is_on_every_logger_that_sees_urls(client: TestClient) -> None:
    for name in ("uvicorn.access", "uvicorn.error", "caserne"):
        assert any(isinstance(f, RedactTokens) for f in logging.getLogger(name).filters)


def test_a_record_with_mapping_arguments() -> None:
    record = logging.LogRecord("caserne", logging.INFO, __file__, 1, "%(url)s", (), None)
    record.args = {"url": "/r/x/modifier?%74=SECRET"}
    RedactTokens().filter(record)
    assert "SECRET" not in record.getMessage()


@pytest.mark.parametrize(
    "path",
    [
        f"/r/abc/modifier?t%253D{TOKEN}",  # the `=` encoded twice (issue 25, item 10)
        f"/carnet/abc?t%253d{TOKEN}",
        f"/r/abc/modifier%3Ft%253D{TOKEN}",
    ],
)
def test_a_twice_encoded_equals_is_masked(path: str) -> None:
    line = access_line(path)
    assert TOKEN not in line and "[masqué]" in line, line


JOIN_CODE = "q8Xf0aZr2LmK7pWs"  # secrets.token_urlsafe(12), as app/store/campaigns.py draws


@pytest.mark.parametrize(
    "path",
    [
        f"/c/0123456789abcdef01234567/rejoindre?code={JOIN_CODE}",
        f"/c/0123456789abcdef01234567/rejoindre?%63ode={JOIN_CODE}",
        f"/c/0123456789abcdef01234567/rejoindre?CODE%253D{JOIN_CODE}",
    ],
)
def test_campaign_join_codes_are_masked(path: str) -> None:
    line = access_line(path)
    assert JOIN_CODE not in line and "[masqué]" in line, line


def test_a_join_link_is_sent_with_no_referrer(client: TestClient) -> None:
    response = client.get(f"/c/nope/rejoindre?code={JOIN_CODE}")
    assert response.headers["referrer-policy"] == "no-referrer"

"""The editor's forms are read in one pass (app/web/form_body.py, issue 29), to the very
fields starlette's own reading (python-multipart's streaming parser) makes of the same
body, its limits and messages included."""

import asyncio
import random
from collections.abc import AsyncGenerator, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi import HTTPException
from starlette.datastructures import Headers
from starlette.formparsers import FormParser, MultiPartException

from app.web.form_body import MAX_FIELDS, urlencoded

CRAFTED = [
    b"",
    b"&",
    b"&&&",
    b"a",
    b"a=",
    b"=b",
    b"=",
    b"a=b=c",
    b"a=1&a=2&&b=3&",
    b"a+b=c+d",
    b"%41%42=%43%2B%26%3D",
    b"%zz=%4=%",
    b"nom=%C3%A9quipe&raw=\xe9\xff",
    b"a=1;b=2",
    b"entry-0-ref=%7B%22unit%22%3A+%22jaffa%22%7D&entry-0-count=02&entry-0-name=+Bob+",
    b"csrf=abc&version=3&shown=1&action=remove%3A1",
]


async def starlette_reads(body: bytes, chunk: int) -> list[tuple[str, object]]:
    async def stream() -> AsyncGenerator[bytes, None]:
        for start in range(0, len(body), chunk):
            yield body[start : start + chunk]
        yield b""

    parser = FormParser(Headers({"content-type": "application/x-www-form-urlencoded"}), stream())
    return list((await parser.parse()).multi_items())


def in_own_thread(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """asyncio.run in a thread of its own: under xdist another test of this process may
    have left an event loop running in this thread (Playwright's sync API), and
    asyncio.run refuses to start there (CI met it, 6 December)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


async def starlette_reads_all(
    bodies: list[bytes], chunks: tuple[int, ...]
) -> list[list[tuple[str, object]]]:
    return [await starlette_reads(body, chunk) for body in bodies for chunk in chunks]


def random_body(rng: random.Random) -> bytes:
    alphabet = b"ab=&+%2C9;\xe9 -_"
    return bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


def test_a_body_is_read_as_starlette_reads_it() -> None:
    rng = random.Random(29)
    bodies = CRAFTED + [random_body(rng) for _ in range(2000)]
    chunks = (1, 7, 65536)  # what the stream's chunks were does not matter
    expected = iter(in_own_thread(starlette_reads_all(bodies, chunks)))
    for body in bodies:
        for chunk in chunks:
            assert list(urlencoded(body).multi_items()) == next(expected), (body, chunk)


def test_past_the_limits_the_same_refusal() -> None:
    body = b"&".join(b"f%d=1" % i for i in range(MAX_FIELDS + 1))
    with pytest.raises(MultiPartException) as theirs:
        in_own_thread(starlette_reads(body, 65536))
    with pytest.raises(HTTPException) as ours:
        urlencoded(body)
    assert (ours.value.status_code, ours.value.detail) == (400, theirs.value.message)
    assert len(urlencoded(body.rsplit(b"&", 1)[0])) == MAX_FIELDS
    big = b"x=" + b"y" * (1024 * 1024)
    with pytest.raises(MultiPartException) as theirs:
        in_own_thread(starlette_reads(big, 65536))
    with pytest.raises(HTTPException) as ours:
        urlencoded(big)
    assert ours.value.detail == theirs.value.message
    assert urlencoded(big[:-1])["x"] == "y" * (1024 * 1024 - 1)

"""A page's posted form read in one pass (issue 29).

Starlette reads an `application/x-www-form-urlencoded` body with python-multipart's
streaming parser: four Python callbacks and bytearray copies per field, about 20 µs a field
of the editor's form (150 to 250 fields a whole save, 52 a count change: 8 % of a count
save's CPU). The body is whole in memory anyway (at most MAX_BODY_BYTES, app/middleware.py),
so it is split here the way that parser splits it, with starlette's limits and messages:
fields separated by « & » (empty ones skipped), a name up to the first « = » (without one,
an empty value), each part read as latin-1 then `unquote_plus` (UTF-8 escapes, « + » a
space). Any other type of body is starlette's to read."""

from urllib.parse import unquote_plus

from fastapi import HTTPException, Request
from python_multipart.multipart import parse_options_header
from starlette.datastructures import FormData, UploadFile

URLENCODED = b"application/x-www-form-urlencoded"
# Starlette's defaults (Request.form): past them, a 400 with its message.
MAX_FIELDS = 1000
MAX_FIELD_BYTES = 1024 * 1024


async def posted_form(request: Request) -> FormData:
    """The request's form, as `request.form()` reads it."""
    content_type, _ = parse_options_header(request.headers.get("content-type"))
    if content_type != URLENCODED:
        return await request.form()
    return urlencoded(await request.body())


def urlencoded(body: bytes) -> FormData:
    """`body`'s fields, as starlette's FormParser makes them."""
    items: list[tuple[str, str | UploadFile]] = []
    for field in body.split(b"&"):
        if not field:
            continue
        name, equals, value = field.partition(b"=")
        if len(field) - len(equals) > MAX_FIELD_BYTES:
            raise HTTPException(400, f"Field exceeded maximum size of {MAX_FIELD_BYTES // 1024}KB.")
        if len(items) == MAX_FIELDS:
            raise HTTPException(400, f"Too many fields. Maximum number of fields is {MAX_FIELDS}.")
        items.append((unquote_plus(name.decode("latin-1")), unquote_plus(value.decode("latin-1"))))
    return FormData(items)

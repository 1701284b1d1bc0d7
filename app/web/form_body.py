"""A page's posted form read in one pass (issue 29).

Starlette reads an `application/x-www-form-urlencoded` body with python-multipart's
streaming parser: four Python callbacks and bytearray copies per field, about 20 µs a field
of the editor's form (150 to 250 fields a whole save, 52 a count change: 8 % of a count
save's CPU). The body is whole in memory anyway (at most MAX_BODY_BYTES, app/middleware.py),
so it is read by the standard library's `parse_qsl`, as app/security/body.py reads a
form's CSRF field, with starlette's limits and messages: fields separated by « & » (empty
ones skipped), a name up to the first « = » (without one, an empty value), the body read as
latin-1 then each part unquoted (UTF-8 escapes, « + » a space). Any other type of body is
starlette's to read."""

from urllib.parse import parse_qsl

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
    if len(body) > MAX_FIELD_BYTES and any(
        len(field) - (b"=" in field) > MAX_FIELD_BYTES for field in body.split(b"&")
    ):
        raise HTTPException(400, f"Field exceeded maximum size of {MAX_FIELD_BYTES // 1024}KB.")
    fields: list[tuple[str, str | UploadFile]] = [
        *parse_qsl(
            body.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="replace"
        )
    ]
    if len(fields) > MAX_FIELDS:
        raise HTTPException(400, f"Too many fields. Maximum number of fields is {MAX_FIELDS}.")
    return FormData(fields)

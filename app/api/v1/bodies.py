"""Request bodies of the JSON API: the JSON-only rule (415 otherwise) and a calculation
from a body's bytes, shared by the calculator routes (app/api/v1/systems.py), their heavy
workers (app/api/v1/heavy.py) and the stored resources' routers."""

import json
from collections.abc import Callable
from typing import TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ValidationError

from app.problems import ApiError, FieldError
from app.systems.result_json import result_json

ModelT = TypeVar("ModelT", bound=BaseModel)


def computed(body: bytes, model: type[ModelT], compute: Callable[[ModelT], BaseModel]) -> bytes:
    """`compute`'s answer to a JSON body as JSON bytes (in the serving process or a heavy
    worker); a body `model` refuses raises FastAPI's own 422."""
    try:
        parsed = model.model_validate_json(body)
    except ValidationError as exc:
        errors = [{**error, "loc": ("body", *error["loc"])} for error in exc.errors()]
        try:
            document = json.loads(body)
        except (ValueError, RecursionError):  # pydantic's own parser stops at its depth
            document = None
        raise RequestValidationError(errors, body=document) from None
    # `model_dump_json().encode()`'s bytes, a roster's entries remembered (29 kB for 50).
    return result_json(compute(parsed))


def is_json(content_type: str) -> bool:
    """`application/json` or a `+json` type, parameters aside."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def require_json(request: Request) -> None:
    """A body in any other type is refused (415): an HTML form can post `text/plain` from
    any site, and the calculator must not read it as JSON."""
    if not is_json(request.headers.get("content-type", "")):
        raise ApiError(
            415,
            "Send the body as JSON (Content-Type: application/json).",
            errors=[
                FieldError(
                    loc=["header", "content-type"],
                    msg="expected application/json",
                    code="unsupported_media_type",
                )
            ],
        )


def require_json_body(request: Request) -> None:
    """`require_json` for the stored resources' routes (a router dependency): a request that
    sends a body sends it as JSON (415 otherwise, as on the calculators); one without a body
    (a share, a new carnet) is not asked for a type."""
    headers = request.headers
    sends_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
    if sends_body:
        require_json(request)

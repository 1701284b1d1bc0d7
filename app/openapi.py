"""The OpenAPI document as the API really answers: every 4xx is problem+json."""

import re
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from app.security.ratelimit import may_be_limited

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}


def install(app: FastAPI, request_models: Sequence[type[BaseModel]]) -> None:
    """`request_models`: bodies that routes parse themselves, documented by reference."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title, version=app.version, summary=app.summary, routes=app.routes
            )
            _, definitions = models_json_schema(
                [(model, "validation") for model in request_models],
                ref_template="#/components/schemas/{model}",
            )
            schemas = schema.setdefault("components", {}).setdefault("schemas", {})
            for name, definition in definitions.get("$defs", {}).items():
                schemas.setdefault(name, definition)
            for template, path in schema.get("paths", {}).items():
                for method, operation in path.items():
                    _problem_responses(operation)
                    _limit_responses(method.upper(), template, operation)
            components = schema.get("components", {}).get("schemas", {})
            components.pop("HTTPValidationError", None)
            components.pop("ValidationError", None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _limit_responses(method: str, template: str, operation: dict[str, Any]) -> None:
    """413 where a body is read, 429 where a rate limit counts (app/security/)."""
    responses = operation.setdefault("responses", {})
    if "requestBody" in operation:
        responses.setdefault("413", {"description": "Body over MAX_BODY_BYTES."})
    if may_be_limited(method, re.sub(r"\{[^/]+\}", "x", template)):
        responses.setdefault(
            "429",
            {
                "description": "Too many requests from this client (or on this roster).",
                "headers": {
                    "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {"type": "integer"},
                    }
                },
            },
        )
    for status in ("413", "429"):
        if status in responses:
            responses[status]["content"] = {"application/problem+json": {"schema": PROBLEM_REF}}


def _problem_responses(operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    if "requestBody" in operation or operation.get("parameters"):
        responses.setdefault("422", {"description": "Invalid input."})
    for status, response in responses.items():
        if status.startswith(("4", "5")) and status != "304":
            response["content"] = {"application/problem+json": {"schema": PROBLEM_REF}}

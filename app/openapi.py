"""The OpenAPI document as the API really answers: every 4xx is problem+json."""

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

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
            for path in schema.get("paths", {}).values():
                for operation in path.values():
                    _problem_responses(operation)
            components = schema.get("components", {}).get("schemas", {})
            components.pop("HTTPValidationError", None)
            components.pop("ValidationError", None)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _problem_responses(operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    if "requestBody" in operation or operation.get("parameters"):
        responses.setdefault("422", {"description": "Invalid input."})
    for status, response in responses.items():
        if status.startswith(("4", "5")) and status != "304":
            response["content"] = {"application/problem+json": {"schema": PROBLEM_REF}}

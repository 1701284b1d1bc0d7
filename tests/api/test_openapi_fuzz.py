"""The whole OpenAPI surface under schemathesis: every generated request gets an answer that
matches the document (status, content type, body schema) and never a 500."""

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings


@pytest.fixture
def api_schema(app: FastAPI) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_asgi("/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_api_conforms_to_its_document(case: schemathesis.Case) -> None:
    case.call_and_validate()

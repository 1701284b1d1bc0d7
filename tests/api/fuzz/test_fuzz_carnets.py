"""The OpenAPI fuzz (probe.py) on the carnet operations."""

from tests.api.fuzz.probe import conformance_test

test_the_carnet_operations_conform_to_the_document = conformance_test("carnets")

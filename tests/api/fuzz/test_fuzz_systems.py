"""The OpenAPI fuzz (probe.py) on the systems' routes (catalogues, costs, validation, odds)."""

from tests.api.fuzz.probe import conformance_test

test_the_system_operations_conform_to_the_document = conformance_test("systems")

"""The OpenAPI fuzz (probe.py) on every other operation: imports, exports, schemas."""

from tests.api.fuzz.probe import conformance_test

test_the_other_operations_conform_to_the_document = conformance_test("other")

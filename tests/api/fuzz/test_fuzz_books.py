"""The OpenAPI fuzz (probe.py) on the army book operations."""

from tests.api.fuzz.probe import conformance_test

test_the_book_operations_conform_to_the_document = conformance_test("books")

"""The OpenAPI fuzz (probe.py) on create_roster, its costliest operation."""

from tests.api.fuzz.probe import conformance_test

test_create_roster_conforms_to_the_document = conformance_test("create_roster")

"""The OpenAPI fuzz (probe.py) on the roster operations, create_roster and the carnets' aside."""

from tests.api.fuzz.probe import conformance_test

test_the_roster_operations_conform_to_the_document = conformance_test("rosters")

"""The OpenAPI fuzz (probe.py) on the campaign operations."""

from tests.api.fuzz.probe import conformance_test

test_the_campaign_operations_conform_to_the_document = conformance_test("campaigns")

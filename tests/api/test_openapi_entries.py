"""Roster entries keep their shared fields in each `oneOf` branch, so that a generated
client's entry classes have `count`, `name`, `source` and `id` typed (issue 28, item 2)."""

from typing import Any

from fastapi.testclient import TestClient


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def test_each_branch_of_an_entry_lists_the_shared_fields(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    seen = 0
    for system in client.get("/api/v1/systems").json():
        roster = schema["components"]["schemas"][f"{system['id'].capitalize()}Roster"]
        entry = resolve(schema, roster["properties"]["entries"]["items"])
        if "oneOf" not in entry:
            continue  # an entry of one shape only: its properties are all there
        seen += 1
        shared = set(entry["properties"]) - {"unit", "custom"}
        assert {"count", "name", "source", "id"} <= shared
        kinds = []
        for branch in entry["oneOf"]:
            [kind] = set(branch["required"]) & {"unit", "custom"}
            kinds.append(kind)
            # The other key is there as null only: answers write `"custom": null` beside a
            # `unit` (schemathesis found the branch refusing the catalogue's own examples).
            [other] = {"unit", "custom"} - {kind}
            assert set(branch["properties"]) == shared | {kind, other}, branch
            assert branch["properties"][other] == {"type": "null"}
            assert branch["properties"]["count"] == entry["properties"]["count"]
            assert branch["additionalProperties"] is False
        assert kinds == ["unit", "custom"]
    assert seen >= 1

"""Every body in the OpenAPI document is typed (issue 28, item 3): a book unit's `definition`
is the system's unit (discriminated by the book's `system`, as roster documents are), a
published book's `units` the same, a catalogue example's `document` what create_roster takes,
a battle's `score` and `recruits` the systems' score bodies and entries; no bare object is
left for a generated client to fill untyped."""

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.book_service import BookService
from app.systems.books import BookDocument
from tests.api.test_books import BOOK, JAFFA, create_book, publish, token

Schema = dict[str, Any]


def document(client: TestClient) -> Schema:
    return client.get("/openapi.json").json()  # type: ignore[no-any-return]


def component(doc: Schema, ref: str) -> Schema:
    return doc["components"]["schemas"][ref.rsplit("/", 1)[1]]  # type: ignore[no-any-return]


def resolve(doc: Schema, node: Schema) -> Schema:
    while "$ref" in node:
        node = component(doc, node["$ref"])
    return node


# What makes a schema say what its value is.
TYPING = {"type", "$ref", "oneOf", "anyOf", "allOf", "const", "enum", "not"}
# Where a value's own schema sits (beside a property's name, in a list, in a body).
SCHEMA_KEYS = ("items", "schema", "additionalProperties")


def untyped(node: Any, where: str = "") -> list[str]:
    """Where the document lets a value through untyped: free properties, an object schema
    naming none of its fields, or a schema saying nothing at all (`{}`: any JSON)."""
    found = []
    if isinstance(node, dict):
        free = node.get("additionalProperties") is True
        unnamed = node.get("type") == "object" and not (
            {"properties", "$ref", "oneOf", "anyOf", "allOf"} & set(node)
            or isinstance(node.get("additionalProperties"), dict)
        )
        if free or unnamed:
            found.append(where)
        for key, value in node.items():
            found += [f"{where}/{key}{name}" for name in _saying_nothing(key, value)]
            found += untyped(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += untyped(value, f"{where}/{index}")
    return found


def _saying_nothing(key: str, value: Any) -> list[str]:
    """The schemas under `key` that say nothing of their value (`{}`, a bare description),
    by their place under it."""
    if key in SCHEMA_KEYS and isinstance(value, dict):
        candidates = [("", value)]
    elif key == "properties" and isinstance(value, dict):
        candidates = [(f"/{name}", schema) for name, schema in value.items()]
    elif key in ("anyOf", "oneOf", "allOf") and isinstance(value, list):
        candidates = [(f"/{i}", schema) for i, schema in enumerate(value)]
    else:
        return []
    return [n for n, s in candidates if isinstance(s, dict) and not TYPING & set(s)]


def test_no_untyped_object_in_the_document(client: TestClient) -> None:
    """No allow-list: the carnet file's documents, published units and ledger lines (issue
    30, after issue 28) are typed as the rest of the API types them (below)."""
    doc = document(client)
    assert untyped(doc["components"]["schemas"], "schemas") == []
    assert untyped(doc["paths"], "paths") == []


def test_the_untyped_finder_sees_each_kind_of_free_value() -> None:
    assert untyped({"a": {"type": "object"}}) == ["/a"]
    assert untyped({"a": {"type": "object", "additionalProperties": True}}) == ["/a"]
    assert untyped({"content": {"application/json": {"schema": {}}}}) == [
        "/content/application/json/schema"
    ]
    assert untyped({"properties": {"x": {"description": "anything"}}}) == ["/properties/x"]
    assert untyped({"anyOf": [{"type": "string"}, {}]}) == ["/anyOf/1"]
    typed = {"type": "object", "properties": {"x": {"$ref": "#/X"}, "y": {"const": 1}}}
    assert untyped({"items": typed, "additionalProperties": {"type": "string"}}) == []


def systems(client: TestClient) -> list[str]:
    return [system["id"] for system in client.get("/api/v1/systems").json()]


def operation(doc: Schema, operation_id: str) -> Schema:
    return next(
        op
        for path in doc["paths"].values()
        for op in path.values()
        if op.get("operationId") == operation_id
    )


def body_schema(doc: Schema, operation_id: str) -> Schema:
    body = operation(doc, operation_id)["requestBody"]["content"]["application/json"]
    return body["schema"]  # type: ignore[no-any-return]


def body_ref(doc: Schema, operation_id: str) -> str:
    ref: str = body_schema(doc, operation_id)["$ref"]
    return ref


def unit_ref(doc: Schema, system: str) -> str:
    """The schema a book unit's definition of `system` is: its cost body, or the trooper
    that body carries (Infinity)."""
    cost = component(doc, body_ref(doc, f"{system}_cost"))
    unit = cost["properties"].get("unit", {})
    return unit["$ref"] if "option" in cost["properties"] else body_ref(doc, f"{system}_cost")  # type: ignore[no-any-return]


def by_system(doc: Schema, union: Schema) -> dict[str, Schema]:
    """A union discriminated by `system`: each system's branch."""
    assert union["discriminator"]["propertyName"] == "system"
    return {
        system: component(doc, ref) for system, ref in union["discriminator"]["mapping"].items()
    }


def test_a_book_is_discriminated_by_system_and_its_units_typed(client: TestClient) -> None:
    doc = document(client)
    branches = by_system(doc, body_schema(doc, "create_book"))
    assert sorted(branches) == sorted(systems(client))
    for system, branch in branches.items():
        assert branch["properties"]["system"]["const"] == system
        unit = resolve(doc, branch["properties"]["units"]["items"])
        assert unit["properties"]["definition"]["$ref"] == unit_ref(doc, system), system
        assert set(unit["required"]) == {"id", "name", "definition"}
    # The same body for a replacement, and the same books in every answer.
    assert body_schema(doc, "replace_book") == body_schema(doc, "create_book")
    for name in ("BookOut", "BookCreated"):
        book = doc["components"]["schemas"][name]["properties"]["book"]
        assert by_system(doc, book) == branches


def test_a_published_book_is_typed_by_its_system(client: TestClient) -> None:
    doc = document(client)
    answer = operation(doc, "get_book_share")["responses"]["200"]["content"]["application/json"]
    shares = by_system(doc, resolve(doc, answer["schema"]))
    assert sorted(shares) == sorted(systems(client))
    for system, share in shares.items():
        assert share["properties"]["system"]["const"] == system
        unit = resolve(doc, share["properties"]["units"]["items"])
        assert unit["properties"]["definition"]["$ref"] == unit_ref(doc, system)
        assert {"code", "book", "version", "latest", "created_at"} <= set(share["required"])


def test_an_example_document_is_what_create_roster_takes(client: TestClient) -> None:
    doc = document(client)
    roster = by_system(doc, body_schema(doc, "create_roster"))
    for system in systems(client):
        answer = operation(doc, f"{system}_catalogue")["responses"]["200"]["content"]
        catalogue = resolve(doc, answer["application/json"]["schema"])
        example = resolve(doc, catalogue["properties"]["examples"]["items"])
        assert resolve(doc, example["properties"]["document"]) == roster[system], system


def test_a_battle_score_and_recruits_are_the_systems_own(client: TestClient) -> None:
    doc = document(client)
    battle = doc["components"]["schemas"]["BattleIn"]["properties"]
    scored = sorted(
        body_ref(doc, f"{system}_score")
        for system in systems(client)
        if any(
            op.get("operationId") == f"{system}_score"
            for p in doc["paths"].values()
            for op in p.values()
        )
    )
    score = battle["score"]["anyOf"]
    assert {"type": "null"} in score
    assert sorted(s["$ref"] for s in score if "$ref" in s) == scored
    rosters = by_system(doc, body_schema(doc, "create_roster"))
    entries = sorted(r["properties"]["entries"]["items"]["$ref"] for r in rosters.values())
    assert sorted(e["$ref"] for e in battle["recruits"]["items"]["anyOf"]) == entries


def answer_schema(doc: Schema, operation_id: str) -> Schema:
    answer = operation(doc, operation_id)["responses"]["200"]["content"]["application/json"]
    return resolve(doc, answer["schema"])


def no_title(schema: Schema) -> Schema:
    return {k: v for k, v in schema.items() if k not in ("title", "description", "default")}


@pytest.mark.parametrize(
    ("operation_id", "read"), [("import_carnet", "body"), ("export_carnet", "answer")]
)
def test_a_carnet_file_is_typed_as_the_api_types_its_parts(
    client: TestClient, operation_id: str, read: str
) -> None:
    """Issue 30's file, in import_carnet's body and export_carnet's answer: a list's
    document is what create_roster takes, a book's what create_book takes, a published
    version's units its book units, a ledger line's score and recruits what record_battle
    takes, its fighters record_battle's fighters as the ledger keeps them."""
    doc = document(client)
    file = body_schema(doc, operation_id) if read == "body" else answer_schema(doc, operation_id)
    file = resolve(doc, file)
    part = {
        name: resolve(doc, file["properties"][name]["items"])
        for name in ("rosters", "books", "gangs")
    }
    rosters = by_system(doc, body_schema(doc, "create_roster"))
    assert by_system(doc, part["rosters"]["properties"]["document"]) == rosters
    books = by_system(doc, body_schema(doc, "create_book"))
    assert by_system(doc, part["books"]["properties"]["document"]) == books
    version = resolve(doc, part["books"]["properties"]["published"]["items"])
    units = [u["$ref"] for u in version["properties"]["units"]["items"]["anyOf"]]
    assert sorted(units) == sorted(
        b["properties"]["units"]["items"]["$ref"] for b in books.values()
    )
    line = resolve(doc, part["gangs"]["properties"]["battles"]["items"])["properties"]
    battle = component(doc, body_ref(doc, "record_battle"))["properties"]
    assert no_title(line["score"]) == no_title(battle["score"])
    assert line["recruits"]["items"] == battle["recruits"]["items"]
    fighter = resolve(doc, line["fighters"]["items"])
    taken = component(doc, battle["fighters"]["items"]["$ref"])
    assert fighter["properties"] == {
        **taken["properties"],
        "id": fighter["properties"]["id"],
        "count": fighter["properties"]["count"],
        "name": fighter["properties"]["name"],
    }
    assert fighter["required"] == taken["required"] == ["entry"]


def test_a_definition_its_system_refuses_is_a_422_naming_it(client: TestClient) -> None:
    wrong = {**BOOK, "units": [{**BOOK["units"][0], "definition": {"level": 7, "items": []}}]}
    response = client.post("/api/v1/books", json=wrong)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    first = response.json()["errors"][0]
    assert first["loc"] == ["body", "units", 0, "definition", "level"]
    created = create_book(client)
    replaced = client.put(
        f"/api/v1/books/{created['id']}", json=wrong, headers={**token(created), "If-Match": '"1"'}
    )
    assert replaced.status_code == 422
    read = client.get(f"/api/v1/books/{created['id']}", headers=token(created)).json()
    assert read["version"] == 1 and read["book"] == BOOK


def test_definitions_are_stored_as_sent(client: TestClient) -> None:
    """Typed, but not rewritten: no default the model would add is stored."""
    created = create_book(client)
    assert created["book"]["units"][0]["definition"] == JAFFA
    share = publish(client, created).json()
    units = client.get(f"/api/v1/book-shares/{share['code']}").json()["units"]
    assert units[0]["definition"] == JAFFA


@pytest.mark.parametrize("read", ["book", "share"])
def test_a_stored_unit_its_system_refuses_is_still_read(
    app: FastAPI, client: TestClient, session: Session, read: str
) -> None:
    """A page keeps a creator's unit even when its system refuses it (the book shows its
    issues): the API reads that book as it is, reporting the unit, never a 500."""
    books = BookService(session, app.state.systems)
    refused = {"id": "faux", "name": "Faux", "text": "", "definition": {"level": 7, "items": []}}
    book, edit_token = books.create(
        BookDocument.model_validate({**BOOK, "units": [BOOK["units"][0], refused]}), None
    )
    headers = {"Authorization": f"Bearer {edit_token}"}
    if read == "book":
        response = client.get(f"/api/v1/books/{book.id}", headers=headers)
        units = response.json()["book"]["units"]
    else:
        code = client.post(f"/api/v1/books/{book.id}/shares", headers=headers).json()["code"]
        response = client.get(f"/api/v1/book-shares/{code}")
        units = response.json()["units"]
    assert response.status_code == 200, response.text
    assert units[1] == refused
    issues = response.json()["validation"]["units"][1]["issues"]
    assert [issue["code"] for issue in issues] == ["invalid_definition"]


def snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def test_no_schema_has_a_typed_field_named_as_itself(client: TestClient) -> None:
    """openapi-python-client names a model's instance after the model (snake_case), in the
    variable that first held that field's parsed value: a schema `Updates` with a list field
    `updates` made a client that did not type-check (the contract test, tests/contract). A
    string field so named (`EditToken.edit_token`) is read as Any, and passes."""
    schemas = document(client)["components"]["schemas"]
    clashes = []
    for name, schema in schemas.items():
        field = schema.get("properties", {}).get(snake(name))
        if field is not None and field.get("type") not in ("string", "integer", "boolean"):
            clashes.append(name)
    assert clashes == []


def test_no_two_schemas_share_a_title(client: TestClient) -> None:
    """openapi-python-client names a class after its schema's title: two schemas of one title
    (FileLine-Input and FileLine-Output, two modules' SameBattle) were both dropped, and with
    them every answer using them (list_battles' 200 in the contract test)."""
    schemas = document(client)["components"]["schemas"]
    titles = [schema.get("title", name) for name, schema in schemas.items()]
    assert sorted({t for t in titles if titles.count(t) > 1}) == []


def test_the_file_exported_is_the_body_imported(client: TestClient) -> None:
    """One schema for the carnet file, in export_carnet's answer and import_carnet's body: a
    program sends back the object it got (two SameBattle models split it into -Input and
    -Output, and a generated client refused the export as the import's body)."""
    doc = document(client)
    answer = operation(doc, "export_carnet")["responses"]["200"]["content"]["application/json"]
    assert (
        answer["schema"]
        == body_schema(doc, "import_carnet")
        == {"$ref": "#/components/schemas/CarnetFile"}
    )


def test_no_schema_is_named_by_its_module(client: TestClient) -> None:
    """Two models of one name made FastAPI name them by their module path
    (`app__api__v1__carnet_file__ImportOut`): the generated classes were named so too."""
    schemas = document(client)["components"]["schemas"]
    assert [name for name in schemas if "__" in name] == []

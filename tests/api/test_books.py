"""Army books through the API (api-v1.md « Army books »), exactly as written: statuses,
bodies, the edit token or the carnet's key, If-Match, publication codes, `latest`, and the
updates a list drawn from a book gets when the book is published again."""

from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_carnets import key, make_carnet
from tests.systems.test_books_engine import JAFFA, MARINE, OVERLOADED, TROOPER

BOOK: dict[str, Any] = {
    "system": "dcsystem",
    "name": "Marines de Kessel",
    "army": "Kessel",
    "description": "Les marines de la lune de Kessel.",
    "units": [
        {"id": "jaffa", "name": "Jaffa", "text": "", "definition": JAFFA},
        {"id": "marine", "name": "Marine", "text": "Tireur.", "definition": MARINE},
        {"id": "lourd", "name": "Lourd", "text": "", "definition": OVERLOADED},
    ],
}


def create_book(client: TestClient, body: dict[str, Any] = BOOK, **headers: str) -> dict[str, Any]:
    response = client.post("/api/v1/books", json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def token(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['edit_token']}"}


def publish(client: TestClient, created: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/books/{created['id']}/shares", headers=token(created))


def test_create_stores_every_unit_and_reports_each(client: TestClient) -> None:
    created = create_book(client)
    assert set(created) == {"id", "version", "edit_token", "book", "validation"}
    assert created["version"] == 1
    assert created["book"] == BOOK
    validation = created["validation"]
    # 28 (L125-127), 8 + 5 = 13, and the overloaded level 1 (11, invalid): kept, reported.
    assert [(u["id"], u["points"], u["valid"]) for u in validation["units"]] == [
        ("jaffa", 28, True),
        ("marine", 13, True),
        ("lourd", 11, False),
    ]
    assert validation["valid"] is False
    read = client.get(f"/api/v1/books/{created['id']}", headers=token(created))
    assert read.status_code == 200
    assert read.json() == {k: v for k, v in created.items() if k != "edit_token"}
    assert read.headers["etag"] == '"1"'
    assert read.headers["cache-control"] == "private, no-store"


def test_points_are_what_cost_answers(client: TestClient) -> None:
    created = create_book(client)
    for unit, checked in zip(BOOK["units"], created["validation"]["units"], strict=True):
        cost = client.post("/api/v1/systems/dcsystem/cost", json=unit["definition"]).json()
        assert checked["points"] == cost["points"]
        assert checked["issues"] == [
            {
                **issue,
                "path": f"units[{BOOK['units'].index(unit)}].definition"
                + (
                    "." + issue["path"]
                    if issue["path"] and not issue["path"].startswith("[")
                    else issue["path"]
                ),
            }
            for issue in cost["issues"]
        ]


def test_infinity_book_gives_points_per_option(client: TestClient) -> None:
    body = {
        "system": "infinity",
        "name": "Compagnie",
        "units": [{"id": "fusilier", "name": "Fusilier", "definition": TROOPER}],
    }
    unit = create_book(client, body)["validation"]["units"][0]
    assert unit["points"] == 10
    assert unit["options"] == [
        {"id": "combi", "points": 10, "swc": 0.0},
        {"id": "hmg", "points": 20, "swc": 1.0},
    ]


def test_a_carnet_key_puts_the_book_in_the_carnet_and_opens_it(client: TestClient) -> None:
    carnet = make_carnet(client)
    created = create_book(client, **key(carnet))
    listed = client.get(f"/api/v1/carnets/{carnet['id']}", headers=key(carnet)).json()
    assert [(b["id"], b["name"], b["system"], b["version"]) for b in listed["books"]] == [
        (created["id"], "Marines de Kessel", "dcsystem", 1)
    ]
    assert listed["books"][0]["updated_at"].endswith(("Z", "+00:00"))
    read = client.get(f"/api/v1/books/{created['id']}", headers=key(carnet))
    assert read.status_code == 200
    other = make_carnet(client)
    assert client.get(f"/api/v1/books/{created['id']}", headers=key(other)).status_code == 403
    wrong = client.post("/api/v1/books", json=BOOK, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403


def test_tokens_and_versions(client: TestClient) -> None:
    created = create_book(client)
    url = f"/api/v1/books/{created['id']}"
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer x"}).status_code == 403
    assert client.get("/api/v1/books/nope", headers=token(created)).status_code == 404
    renamed = {**BOOK, "name": "Kessel II"}
    assert client.put(url, json=renamed, headers=token(created)).status_code == 428
    replaced = client.put(url, json=renamed, headers={**token(created), "If-Match": '"1"'})
    assert replaced.status_code == 200, replaced.text
    assert replaced.json()["version"] == 2 and replaced.json()["book"]["name"] == "Kessel II"
    assert replaced.headers["etag"] == '"2"'
    stale = client.put(url, json=BOOK, headers={**token(created), "If-Match": '"1"'})
    assert stale.status_code == 409
    assert stale.headers["content-type"] == "application/problem+json"
    assert client.get(url, headers=token(created)).json()["book"]["name"] == "Kessel II"
    other_system = {**BOOK, "system": "bastos", "units": []}
    moved = client.put(url, json=other_system, headers={**token(created), "If-Match": '"2"'})
    assert moved.status_code == 422


def test_bad_input_is_a_422_problem_naming_the_field(client: TestClient) -> None:
    cases = [
        ({**BOOK, "system": "warhammer"}, "system"),
        ({**BOOK, "units": [*BOOK["units"], BOOK["units"][0]]}, "units"),
        ({**BOOK, "units": [{**BOOK["units"][0], "id": "Pas Bon"}]}, "id"),
        ({**BOOK, "name": ""}, "name"),
        ({**BOOK, "units": [{**BOOK["units"][0], "definition": [1]}]}, "definition"),
    ]
    for body, field in cases:
        response = client.post("/api/v1/books", json=body)
        assert response.status_code == 422, body
        assert response.headers["content-type"] == "application/problem+json"
        assert any(field in map(str, error["loc"]) for error in response.json()["errors"])


def test_publish_freezes_a_version_and_latest_follows(client: TestClient) -> None:
    created = create_book(client)
    first = publish(client, created)
    assert first.status_code == 201, first.text
    body = first.json()
    code = body["code"]
    assert body == {
        "code": code,
        "url": f"http://testserver/a/{code}",
        "version": 1,
        "exports": {
            "bbcode": f"http://testserver/a/{code}.bbcode",
            "markdown": f"http://testserver/a/{code}.md",
            "text": f"http://testserver/a/{code}.txt",
            "json": f"http://testserver/a/{code}.json",
        },
    }
    again = publish(client, created)
    assert again.status_code == 200 and again.json()["code"] == code
    shared = client.get(f"/api/v1/book-shares/{code}")
    assert shared.status_code == 200
    frozen = shared.json()
    assert frozen["book"] == created["id"] and frozen["latest"] == code
    assert (frozen["version"], frozen["system"], frozen["name"], frozen["army"]) == (
        1,
        "dcsystem",
        "Marines de Kessel",
        "Kessel",
    )
    assert frozen["units"] == BOOK["units"]
    assert frozen["validation"] == created["validation"]
    assert shared.headers["cache-control"] == "public, max-age=60"
    cached = client.get(
        f"/api/v1/book-shares/{code}", headers={"If-None-Match": shared.headers["etag"]}
    )
    assert cached.status_code == 304
    changed = {**BOOK, "units": [{**BOOK["units"][0], "definition": MARINE}]}
    client.put(
        f"/api/v1/books/{created['id']}", json=changed, headers={**token(created), "If-Match": "1"}
    )
    second = publish(client, created).json()
    assert second["code"] != code and second["version"] == 2
    old = client.get(f"/api/v1/book-shares/{code}").json()
    assert old["latest"] == second["code"] and old["units"] == BOOK["units"]
    # Deleting the book keeps what was published.
    deleted = client.delete(f"/api/v1/books/{created['id']}", headers=token(created))
    assert deleted.status_code == 204
    assert client.get(f"/api/v1/books/{created['id']}", headers=token(created)).status_code == 404
    assert client.get(f"/api/v1/book-shares/{code}").status_code == 200
    assert client.get("/api/v1/book-shares/zzzzzzzz").status_code == 404


def drawn_roster(client: TestClient, code: str) -> dict[str, Any]:
    roster = {
        "system": "dcsystem",
        "name": "Patrouille",
        "points_limit": 200,
        "entries": [
            {
                "custom": MARINE,
                "name": "Marine",
                "count": 2,
                "source": {"book": code, "unit": "marine"},
            },
            {
                "custom": JAFFA,
                "name": "Jaffa",
                "count": 1,
                "source": {"book": code, "unit": "jaffa"},
            },
            {"unit": "jaffa", "count": 1},
        ],
    }
    response = client.post("/api/v1/rosters", json=roster)
    assert response.status_code == 201, response.text
    assert response.json()["roster"]["entries"][0]["source"] == {"book": code, "unit": "marine"}
    assert "source" not in response.json()["roster"]["entries"][2]
    return response.json()  # type: ignore[no-any-return]


def test_updates_show_what_changed_and_apply_it(client: TestClient) -> None:
    created = create_book(client)
    code = publish(client, created).json()["code"]
    roster = drawn_roster(client, code)
    url = f"/api/v1/rosters/{roster['id']}/updates"
    # 2 × 13 + 28 + the catalogue Jaffa.
    total = roster["validation"]["points"]
    assert roster["validation"]["entries"][0]["points"] == 26
    none = client.get(url, headers=token(roster))
    assert none.status_code == 200
    assert none.json() == {"updates": [], "points_before": total, "points_after": total}
    # The owner gives the Marine a second weapon at level 2 (15 + 5 + 8 = 28) and withdraws
    # the Jaffa, then publishes again.
    veteran = {"level": 2, "items": ["arme_tir_1", "gilet_de_protection"]}
    changed = {
        **BOOK,
        "units": [
            {"id": "marine", "name": "Marine", "text": "Tireur.", "definition": veteran},
            BOOK["units"][2],
        ],
    }
    client.put(
        f"/api/v1/books/{created['id']}", json=changed, headers={**token(created), "If-Match": "1"}
    )
    latest = publish(client, created).json()["code"]
    got = client.get(url, headers=token(roster))
    assert got.status_code == 200
    assert got.json() == {
        "updates": [
            {
                "path": "entries[0]",
                "book": code,
                "latest": latest,
                "unit": "marine",
                "status": "changed",
                "points_before": 13,
                "points_after": 28,
                "changes": [
                    "Niveau 1 → 2",
                    "Équipement : + gilet_de_protection",
                    "Coût 13 → 28 pts",
                ],
            },
            {
                "path": "entries[1]",
                "book": code,
                "latest": latest,
                "unit": "jaffa",
                "status": "withdrawn",
                "points_before": 28,
                "points_after": 28,
                "changes": ["Unité retirée du livre"],
            },
        ],
        "points_before": total,
        "points_after": total - 26 + 56,
    }
    assert client.post(url, json={}, headers=token(roster)).status_code == 428
    one = client.post(
        url, json={"paths": ["entries[0]"]}, headers={**token(roster), "If-Match": '"1"'}
    )
    assert one.status_code == 200, one.text
    entries = one.json()["roster"]["entries"]
    assert entries[0]["custom"] == veteran
    assert entries[0]["source"] == {"book": latest, "unit": "marine"}
    assert entries[1]["source"] == {"book": code, "unit": "jaffa"}
    assert one.json()["validation"]["points"] == total - 26 + 56
    assert one.json()["version"] == 2
    stale = client.post(url, json={}, headers={**token(roster), "If-Match": '"1"'})
    assert stale.status_code == 409
    rest = client.post(url, json={}, headers={**token(roster), "If-Match": '"2"'})
    assert rest.status_code == 200
    # A withdrawn unit stays in the list, as the player's own (no source any more).
    assert "source" not in rest.json()["roster"]["entries"][1]
    assert rest.json()["roster"]["entries"][1]["custom"] == JAFFA
    assert client.get(url, headers=token(roster)).json()["updates"] == []


def test_infinity_updates_replace_the_trooper(client: TestClient) -> None:
    body = {
        "system": "infinity",
        "name": "Compagnie",
        "units": [{"id": "fusilier", "name": "Fusilier", "definition": TROOPER}],
    }
    created = create_book(client, body)
    code = publish(client, created).json()["code"]
    roster = client.post(
        "/api/v1/rosters",
        json={
            "system": "infinity",
            "name": "Compagnie",
            "points_limit": 300,
            "entries": [{"unit": "fusilier", "option": "hmg", "count": 1}],
            "extras": {"units": [{**TROOPER, "source": {"book": code, "unit": "fusilier"}}]},
        },
    ).json()
    cheaper = {**TROOPER, "options": [{**TROOPER["options"][1], "points": 18}]}
    client.put(
        f"/api/v1/books/{created['id']}",
        json={**body, "units": [{**body["units"][0], "definition": cheaper}]},
        headers={**token(created), "If-Match": "1"},
    )
    latest = publish(client, created).json()["code"]
    url = f"/api/v1/rosters/{roster['id']}/updates"
    update = client.get(url, headers=token(roster)).json()
    assert update["updates"][0]["path"] == "extras.units[0]"
    assert update["updates"][0]["changes"] == [
        "Options HMG Points 20 → 18",
        "Options : − Fusil Combi",
        "Coût 10 → 18 pts",
    ]
    assert (update["points_before"], update["points_after"]) == (20, 18)
    applied = client.post(url, json={}, headers={**token(roster), "If-Match": "1"}).json()
    assert applied["roster"]["extras"]["units"][0]["source"]["book"] == latest
    assert applied["validation"]["points"] == 18


def test_published_page_and_exports(client: TestClient) -> None:
    created = create_book(client)
    code = publish(client, created).json()["code"]
    page = client.get(f"/a/{code}")
    assert page.status_code == 200
    html = page.text
    assert "Marines de Kessel" in html and "version 1" in html
    # Every number the page shows for a unit is its `cost` answer: 28, 13, 11.
    for unit_id, points in (("jaffa", 28), ("marine", 13), ("lourd", 11)):
        assert f'id="unit-{unit_id}"' in html
        assert f"— {points} pts" in html
    assert 'id="invalid-banner"' in html and 'id="newer-version"' not in html
    assert '<td>Niveau 2</td><td class="num">15</td>' in html
    text = client.get(f"/a/{code}.txt")
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert text.text.splitlines()[0].startswith("Marines de Kessel (Kessel) — ")
    assert text.text.splitlines()[0].endswith(", v1")
    assert "Jaffa — 28 pts" in text.text and "Lourd — 11 pts" in text.text
    bbcode = client.get(f"/a/{code}.bbcode").text
    assert "\n\n[b]Jaffa[/b] — 28 pts\nNiveau : 2\n" in bbcode and "[*]" not in bbcode
    md = client.get(f"/a/{code}.md").text
    assert "* **Marine** — 13 pts" in md
    as_json = client.get(f"/a/{code}.json").json()
    assert as_json == client.get(f"/api/v1/book-shares/{code}").json()
    assert client.get("/a/zzzzzzzz").status_code == 404
    assert client.get(f"/a/{code}.pdf").status_code == 404
    changed = {**BOOK, "units": BOOK["units"][:1]}
    client.put(
        f"/api/v1/books/{created['id']}", json=changed, headers={**token(created), "If-Match": "1"}
    )
    latest = publish(client, created).json()["code"]
    assert f'href="/a/{latest}"' in client.get(f"/a/{code}").text


def test_the_markdown_renders_in_commonmark(client: TestClient) -> None:
    from markdown_it import MarkdownIt

    hostile = {**BOOK, "name": "Kessel *gras* [lien](http://x)", "units": BOOK["units"]}
    code = publish(client, create_book(client, hostile)).json()["code"]
    html = MarkdownIt("commonmark").render(client.get(f"/a/{code}.md").text)
    # Every unit with its cost, as a list item; user text stays literal.
    assert html.count("<li><strong>") == 3
    assert "<li><strong>Jaffa</strong> — 28 pts" in html
    assert "<li><strong>Marine</strong> — 13 pts" in html
    assert "<li>Niveau 2 : 15 pts</li>" in html
    assert "<em>" not in html and 'href="http://x"' not in html
    assert "Kessel *gras* [lien](http://x)" in html


def test_a_nul_in_a_unit_definition_is_a_422_not_a_500(client: TestClient) -> None:
    """CI's schemathesis run on PostgreSQL met a 500 (« unsupported Unicode escape
    sequence ») for a definition holding U+0000, and the rolled-back session failed every
    later case. A definition is its system's unit (issue 28): its model refuses a U+0000
    where a catalogue id goes, on both databases alike; a unit's text with a backslash
    followed by « u0000 » is plain text."""
    nul = {"id": "nul", "name": "Nul", "text": "", "definition": {"level": 1, "items": ["a\x00b"]}}
    for body in (
        {**BOOK, "units": [nul]},
        {**BOOK, "units": [{**nul, "text": "a\x00b", "definition": JAFFA}]},
    ):
        refused = client.post("/api/v1/books", json=body)
        assert refused.status_code == 422, refused.text
        assert refused.headers["content-type"] == "application/problem+json"
    created = create_book(client)
    stored = client.get(f"/api/v1/books/{created['id']}", headers=token(created)).json()
    version = stored["version"]
    replaced = client.put(
        f"/api/v1/books/{created['id']}",
        json={**BOOK, "units": [nul]},
        headers={**token(created), "If-Match": f'"{version}"'},
    )
    assert replaced.status_code == 422
    assert client.get(f"/api/v1/books/{created['id']}", headers=token(created)).json() == stored
    literal = {**nul, "text": "a\\u0000b \\\\\\u0000", "definition": JAFFA}
    assert client.post("/api/v1/books", json={**BOOK, "units": [literal]}).status_code == 201

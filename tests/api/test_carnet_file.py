"""The carnet in one file through the API (api-v1.md « Import, history and the carnet
file »; docs/carnet-file.md): a carnet with lists of several systems, an army book published
twice and a list drawn from it, two gangs of a campaign it organises (a battle recorded by
both, a line voided, a dead fighter) and a gang outside any campaign, downloaded, restored
into a fresh carnet, downloaded again: the same content, its codes and ids aside. The file
checks against its checked-in JSON Schema; bad files store nothing."""

import json
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient

from app.carnet_file.models import schema
from app.settings import ROOT
from tests.api.test_battle_verdicts import void
from tests.api.test_books import BOOK, publish
from tests.api.test_campaigns import battle, join, orlocks
from tests.api.test_carnets import key, make_carnet
from tests.systems.test_books_engine import MARINE

SCHEMA_FILE = ROOT / "docs" / "carnet-file.schema.json"
DEEP: list[Any] = []
for _ in range(24):
    DEEP = [DEEP]


def carnet_file(**parts: Any) -> dict[str, Any]:
    """A carnet file holding `parts` (rosters, books, gangs, campaigns)."""
    header = {"format": "caserne-carnet", "format_version": 1}
    return {**header, "exported_at": "2026-12-01T10:00:00Z", **parts}


# A list of a system no Caserne serves, and a list of Jaffas.
ELSEWHERE = {"name": "Ailleurs", "system": "warhammer", "document": {"system": "warhammer"}}


def jaffas(count: int) -> dict[str, Any]:
    entries = [{"unit": "jaffa", "count": count}] if count else []
    document = {"system": "dcsystem", "name": "Jaffas", "entries": entries}
    return {"name": "Jaffas", "system": "dcsystem", "document": document}


def in_carnet(client: TestClient, carnet: dict[str, Any], document: dict[str, Any]) -> Any:
    made = client.post(
        f"/api/v1/carnets/{carnet['id']}/rosters", json=document, headers=key(carnet)
    )
    assert made.status_code == 201, made.text
    return made.json()


def ok(response: Any, status: int = 201) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def rich_carnet(client: TestClient) -> tuple[dict[str, Any], list[str]]:
    """A carnet holding a bit of everything (module docstring), and its lists' names."""
    carnet = make_carnet(client)
    names = []
    systems = client.get("/api/v1/systems").json()
    for system in ("dcsystem", "infinity", "bastos"):
        assert system in {s["id"] for s in systems}
        example = client.get(f"/api/v1/systems/{system}/catalogue").json()["examples"][0]
        names.append(in_carnet(client, carnet, example["document"])["roster"]["name"])
    book = ok(client.post("/api/v1/books", json=BOOK, headers=key(carnet)))
    first = ok(publish(client, book))
    changed = {**BOOK, "description": "Deuxième édition."}
    ok(
        client.put(
            f"/api/v1/books/{book['id']}", json=changed, headers={**key(carnet), "If-Match": '"1"'}
        ),
        200,
    )
    ok(publish(client, book))
    drawn = {
        "system": "dcsystem",
        "name": "Tirée du livre",
        "entries": [
            {
                "custom": MARINE,
                "name": "Marine",
                "count": 2,
                "source": {"book": first["code"], "unit": "marine"},
            },
            {"unit": "jaffa", "count": 3},
        ],
    }
    in_carnet(client, carnet, drawn)
    campaign = ok(
        client.post(
            "/api/v1/campaigns",
            json={"system": "necrowarzone", "name": "La Ruche"},
            headers=key(carnet),
        )
    )
    alpha = in_carnet(client, carnet, orlocks("Alpha"))
    bravo = in_carnet(client, carnet, orlocks("Bravo"))
    for gang in (alpha, bravo):
        assert join(client, campaign, gang).status_code == 201
    against = {"campaign": campaign["id"], "opponent_roster": bravo["id"]}
    ok(battle(client, alpha, 1, {**against, "fighters": [{"entry": 1, "xp": 5}]}))
    mirrored = {"campaign": campaign["id"], "opponent_roster": alpha["id"], "result": "loss"}
    ok(battle(client, bravo, 1, {**mirrored, "fighters": [{"entry": 4, "state": "dead"}]}))
    ok(battle(client, alpha, 2, {**against, "date": "2026-12-03", "notes": "Nuit sans lune"}))
    organiser = {"Authorization": f"Bearer {campaign['edit_token']}"}
    assert void(client, campaign, alpha["id"], 2, **organiser).status_code == 200
    loner = in_carnet(client, carnet, orlocks("Les Solitaires"))
    ok(battle(client, loner, 1, {"result": "draw", "fighters": [{"entry": 2, "xp": 7}]}))
    return carnet, [*names, "Tirée du livre", "Alpha", "Bravo", "Les Solitaires"]


def exported(client: TestClient, carnet: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/carnets/{carnet['id']}/export", headers=key(carnet))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.headers["cache-control"] == "private, no-store"
    assert response.headers["content-disposition"].startswith(
        'attachment; filename="carnet-caserne-'
    )
    return response.json()  # type: ignore[no-any-return]


def canonical(file: dict[str, Any]) -> dict[str, Any]:
    """The file without what only says where it was made: its date, and the codes of shares
    and published book versions (each renamed by its first place in the file)."""
    names: dict[str, str] = {}

    def code(value: str) -> str:
        return names.setdefault(value, f"#{len(names)}")

    def walk(value: Any, key: str = "") -> Any:
        if isinstance(value, list):
            return [walk(item) for item in value]
        if isinstance(value, dict):
            out = {k: walk(v, k) for k, v in value.items()}
            if key == "source" and isinstance(out.get("book"), str):
                out["book"] = code(out["book"])
            for name in ("code", "share"):
                if isinstance(out.get(name), str):
                    out[name] = code(out[name])
            return out
        return value

    return {k: walk(v) for k, v in file.items() if k != "exported_at"}


def test_the_schema_file_is_the_formats_and_the_api_serves_it(client: TestClient) -> None:
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == schema()
    served = client.get("/api/v1/schemas/carnet-export")
    assert served.status_code == 200
    assert served.headers["content-type"] == "application/schema+json"
    assert served.json() == schema()


def test_downloaded_restored_downloaded_again_is_the_same_carnet(client: TestClient) -> None:
    first, names = rich_carnet(client)
    file = exported(client, first)
    jsonschema_rs.validator_for(json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))).validate(file)
    assert (file["format"], file["format_version"]) == ("caserne-carnet", 1)
    assert [r["name"] for r in file["rosters"]] == names
    assert names[0] == "Feuille de bataille Réplicateurs"
    assert [len(b["published"]) for b in file["books"]] == [2]
    assert [(g["roster"], [line["battle"] for line in g["battles"]]) for g in file["gangs"]] == [
        (4, [1, 2]),
        (5, [1]),
        (6, [1]),
    ]
    alpha_first, alpha_second = file["gangs"][0]["battles"]
    bravo_first = file["gangs"][1]["battles"][0]
    assert (alpha_first["campaign"], alpha_first["opponent_roster"]) == (0, 5)
    assert alpha_first["verdict"] == "confirmed" and alpha_second["voided_at"] is not None
    assert bravo_first["same_as"] == {"roster": 4, "battle": 1}
    assert file["campaigns"] == [
        {
            "name": "La Ruche",
            "system": "necrowarzone",
            "notes": "",
            "created_at": file["campaigns"][0]["created_at"],
            "gangs": [4, 5],
        }
    ]

    fresh = make_carnet(client)
    answer = client.post(f"/api/v1/carnets/{fresh['id']}/import", json=file, headers=key(fresh))
    assert answer.status_code == 200, answer.text
    came = answer.json()
    assert [r["name"] for r in came["rosters"]] == [r["name"] for r in file["rosters"]]
    assert [b["name"] for b in came["books"]] == ["Marines de Kessel"]
    assert [c["name"] for c in came["campaigns"]] == ["La Ruche"]
    assert (came["battles"], came["skipped"]) == (4, [])
    again = exported(client, fresh)
    assert canonical(again) == canonical(file)
    # New rows: the first carnet's lists are as they were, the new ones its own.
    held = client.get(f"/api/v1/carnets/{fresh['id']}", headers=key(fresh)).json()
    assert {r["id"] for r in held["rosters"]} == {r["id"] for r in came["rosters"]}
    original = client.get(f"/api/v1/carnets/{first['id']}", headers=key(first)).json()
    assert not {r["id"] for r in original["rosters"]} & {r["id"] for r in came["rosters"]}
    # The restored list drawn from the book names the restored book's version.
    drawn = next(r for r in came["rosters"] if r["name"] == "Tirée du livre")
    body = client.get(f"/api/v1/rosters/{drawn['id']}", headers=key(fresh)).json()
    code = body["roster"]["entries"][0]["source"]["book"]
    version = client.get(f"/api/v1/book-shares/{code}").json()
    assert (version["book"], version["version"]) == (came["books"][0]["id"], 1)
    # The restored gang: its dead fighter leaves its totals, its ledger reads as before.
    bravo = next(r for r in came["rosters"] if r["name"] == "Bravo")
    read = client.get(f"/api/v1/rosters/{bravo['id']}", headers=key(fresh)).json()
    assert read["validation"]["derived"]["figures"] == 8
    was = next(r for r in original["rosters"] if r["name"] == "Bravo")

    def ledger(roster_id: str, owner: dict[str, Any]) -> list[tuple[Any, ...]]:
        read = client.get(f"/api/v1/rosters/{roster_id}/battles", headers=key(owner)).json()
        return [
            (b["battle"], b["date"], b["result"], b["verdict"], b["voided"], b["fighters"])
            for b in read["battles"]
        ]

    assert ledger(bravo["id"], fresh) == ledger(was["id"], first)
    assert [line[:5] for line in ledger(bravo["id"], fresh)] == [
        (1, "2026-12-01", "loss", "confirmed", False),
        (2, "2026-12-03", "loss", "pending", True),
    ]
    # Each restored list's history starts with the restore.
    versions = client.get(f"/api/v1/rosters/{bravo['id']}/versions", headers=key(fresh)).json()
    assert versions["versions"][0]["summary"][0].startswith("Restaurée depuis un fichier de carnet")
    assert versions["versions"][0]["origin"] == "file"


def test_a_newer_format_version_is_refused_whatever_it_holds(client: TestClient) -> None:
    carnet = make_carnet(client)
    newer = {"format": "caserne-carnet", "format_version": 2, "rosters": "autre chose"}
    answer = client.post(f"/api/v1/carnets/{carnet['id']}/import", json=newer, headers=key(carnet))
    assert answer.status_code == 422
    assert answer.json()["errors"] == [
        {
            "loc": ["body"],
            "msg": "format_version 2 is newer than this server's (1): update it",
            "code": "format_version",
        }
    ]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (
            {"format": "autre", "format_version": 1, "exported_at": "2026-12-01T00:00:00Z"},
            "literal_error",
        ),
        (
            {
                "format": "caserne-carnet",
                "format_version": 1,
                "exported_at": "2026-12-01T00:00:00Z",
                "rosters": [{"system": "dcsystem", "document": {"name": "\ud800"}}],
            },
            "invalid_text",
        ),
        (
            {
                "format": "caserne-carnet",
                "format_version": 1,
                "exported_at": "2026-12-01T00:00:00Z",
                "rosters": [{"system": "dcsystem", "document": {"n": DEEP}}],
            },
            "json_too_deep",
        ),
        ([1, 2], "model_attributes_type"),
    ],
)
def test_bad_files_store_nothing(client: TestClient, body: Any, code: str) -> None:
    carnet = make_carnet(client)
    text = json.dumps(body)  # \ud800 stays escaped: json.loads gives a lone surrogate
    answer = client.post(
        f"/api/v1/carnets/{carnet['id']}/import",
        content=text,
        headers={**key(carnet), "Content-Type": "application/json"},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["code"] == code
    listing = client.get(f"/api/v1/carnets/{carnet['id']}", headers=key(carnet)).json()
    assert listing["rosters"] == [] and listing["books"] == []


def test_what_cannot_come_in_is_skipped_and_said(client: TestClient) -> None:
    carnet = make_carnet(client)
    unknown = {"system": "dcsystem", "entries": [{"unit": "pas_une_unite", "count": 1}]}
    file = carnet_file(
        rosters=[
            ELSEWHERE,
            jaffas(2),
            {"name": "Inconnu", "system": "dcsystem", "document": unknown},
        ],
        gangs=[{"roster": 0, "battles": [{"battle": 1, "date": "2026-12-01", "result": "win"}]}],
    )
    answer = client.post(f"/api/v1/carnets/{carnet['id']}/import", json=file, headers=key(carnet))
    assert answer.status_code == 200, answer.text
    came = answer.json()
    assert [r["name"] for r in came["rosters"]] == ["Jaffas"]
    assert [(s["path"], s["code"]) for s in came["skipped"]] == [
        ("rosters[0]", "unknown_system"),
        ("rosters[2]", "invalid_document"),
        ("gangs[0]", "gang_not_restored"),
    ]
    assert came["battles"] == 0


def test_a_file_past_the_carnets_room_stores_nothing(client: TestClient, monkeypatch: Any) -> None:
    from app.carnet_file import restore

    monkeypatch.setattr(restore, "CARNET_MAX_ROSTERS", 2)
    carnet = make_carnet(client)
    in_carnet(client, carnet, {"system": "dcsystem", "entries": []})
    one = {"system": "dcsystem", "document": {"system": "dcsystem", "entries": []}}
    file = {
        "format": "caserne-carnet",
        "format_version": 1,
        "exported_at": "2026-12-01T10:00:00Z",
        "rosters": [one, one],
    }
    answer = client.post(f"/api/v1/carnets/{carnet['id']}/import", json=file, headers=key(carnet))
    assert answer.status_code == 409
    assert answer.json()["errors"][0]["code"] == "carnet_full"
    listing = client.get(f"/api/v1/carnets/{carnet['id']}", headers=key(carnet)).json()
    assert len(listing["rosters"]) == 1


def test_the_key_is_needed(client: TestClient) -> None:
    carnet = make_carnet(client)
    url = f"/api/v1/carnets/{carnet['id']}"
    assert client.get(f"{url}/export").status_code == 401
    assert client.get(f"{url}/export", headers={"Authorization": "Bearer faux"}).status_code == 403
    assert (
        client.post(f"{url}/import", json={}, headers={"Authorization": "Bearer faux"}).status_code
        == 403
    )


def imported(client: TestClient, carnet: dict[str, Any], file: Any) -> Any:
    answer = client.post(f"/api/v1/carnets/{carnet['id']}/import", json=file, headers=key(carnet))
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_an_old_or_odd_file_comes_in_as_it_was(client: TestClient) -> None:
    """What the API's document types as this server's (issue 28: documents, published units,
    ledger lines) is read as the format reads it: a list or book of a system this server
    does not serve, a document today's catalogue refuses, a published unit its engine
    refuses, a line of an older server (fighters without ids, a score of another shape, a
    recruit whose unit left the catalogue, a key a newer server wrote) still come in or are
    skipped and said — never the whole file refused — and go out again as they came."""
    carnet = make_carnet(client)
    gang = orlocks("Les Anciens")
    gang["entries"][1] = {"name": "Vieux", "custom": gang["entries"][1]["custom"]}  # no id
    refused = {"id": "faux", "name": "Faux", "text": "", "definition": {"level": 7}}
    book = {"system": "dcsystem", "name": "Vieux livre", "units": []}
    line = {
        "battle": 1,
        "date": "2026-11-01",
        "result": "win",
        "score": {"ancien_barème": 3},
        "fighters": [{"entry": 1, "xp": 4, "name": "Vieux", "blessure": "jambe"}],
        "recruits": [{"unit": "ancienne_recrue", "count": 1, "name": "Bleu"}],
    }
    file = carnet_file(
        rosters=[ELSEWHERE, {"name": "Les Anciens", "system": "necrowarzone", "document": gang}],
        books=[
            {**ELSEWHERE, "name": "Livre d'ailleurs"},
            {
                "name": "Vieux livre",
                "system": "dcsystem",
                "document": book,
                "published": [
                    {"code": "vieux1", "version": 1, "name": "Vieux livre", "units": [refused]}
                ],
            },
        ],
        gangs=[{"roster": 1, "battles": [line]}],
    )
    came = imported(client, carnet, file)
    assert [(s["path"], s["code"]) for s in came["skipped"]] == [
        ("books[0]", "unknown_system"),
        ("rosters[0]", "unknown_system"),
        ("gangs[0].battles[0]", "battle_state"),
    ]
    assert (len(came["rosters"]), len(came["books"]), came["battles"]) == (1, 1, 1)
    again = exported(client, carnet)
    [kept] = again["gangs"][0]["battles"]
    assert {k: kept[k] for k in ("score", "fighters", "recruits")} == {
        k: line[k] for k in ("score", "fighters", "recruits")
    }
    [version] = again["books"][0]["published"]
    assert version["units"] == [refused]
    read = client.get(f"/api/v1/rosters/{came['rosters'][0]['id']}/battles", headers=key(carnet))
    assert read.status_code == 200, read.text
    assert [(f["name"], f["xp"]) for f in read.json()["battles"][0]["fighters"]] == [("Vieux", 4)]
    # Its export comes in again, whole (the gang's state is on this server now).
    twice = imported(client, make_carnet(client), again)
    assert (twice["skipped"], twice["battles"], len(twice["books"])) == ([], 1, 1)


@pytest.mark.parametrize(
    ("fighter", "loc"),
    [
        ({"xp": 3}, ["entry"]),
        ({"entry": 1, "changes": [{"by": 1}]}, ["changes", 0, "stat"]),
        ({"entry": 1, "xp": "5"}, ["xp"]),
    ],
)
def test_a_fighter_no_ledger_can_read_is_refused_by_its_path(
    client: TestClient, fighter: dict[str, Any], loc: list[Any]
) -> None:
    """A line's fighter is read back by the ledger (its entry, changes, XP): one without
    them was stored, then a 500 wherever the gang was counted (the restore's own history
    first). Now a 422 naming it, nothing stored."""
    carnet = make_carnet(client)
    line = {"battle": 1, "date": "2026-12-01", "result": "win", "fighters": [fighter]}
    file = carnet_file(
        rosters=[{"name": "O", "system": "necrowarzone", "document": orlocks("O")}],
        gangs=[{"roster": 0, "battles": [line]}],
    )
    answer = client.post(f"/api/v1/carnets/{carnet['id']}/import", json=file, headers=key(carnet))
    assert answer.status_code == 422, answer.text
    error = answer.json()["errors"][0]
    assert error["loc"] == ["body", "gangs", 0, "battles", 0, "fighters", 0, *loc]
    listing = client.get(f"/api/v1/carnets/{carnet['id']}", headers=key(carnet)).json()
    assert listing["rosters"] == []

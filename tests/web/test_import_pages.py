"""« Importer une liste » (`/listes/importer`, issue 30): paste or drop, see each line, save
one new list in the carnet; nothing stored before; a clear French message for bad input."""

import html
import json
import re

from fastapi.testclient import TestClient
from sqlalchemy import func
from sqlmodel import Session, select

from app.store import rosters as store
from app.store.models import Roster
from tests.api.test_rosters import auth, create

TYPED = "Ma liste SG\n3 x Jaffa\nTeal'c\n1 x Goold\n"


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def rosters(session: Session) -> int:
    return session.exec(select(func.count()).select_from(Roster)).one()


def preview(browser: TestClient, **data: str) -> str:
    response = browser.post("/listes/importer", data={"systeme": "", **data})
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "private, no-store"
    return response.text


def test_the_page_is_linked_from_my_lists_and_home(browser: TestClient) -> None:
    assert 'href="/listes/importer" id="import-list"' in browser.get("/listes").text
    assert 'href="/listes/importer" id="home-import"' in browser.get("/").text
    page = browser.get("/listes/importer")
    assert page.status_code == 200
    assert '<textarea id="import-text" name="texte"' in page.text
    assert 'type="file" id="import-file" name="fichier"' in page.text
    assert 'enctype="multipart/form-data"' in page.text


def test_preview_shows_each_line_and_stores_nothing(browser: TestClient, session: Session) -> None:
    before = rosters(session)
    page = preview(browser, texte=TYPED)
    shown = text_of(page)
    assert "Ce que devient votre liste" in shown
    assert "total selon Caserne : 167 points" in shown
    assert "3 × Jaffa — 30 pts chacun, 90 pts (reconnue)" in shown
    assert "1 × Teal'c — 77 pts (reconnue)" in shown
    assert "1 ligne non reconnue" in shown
    assert 'id="choice-3"' in page and '<option value="goauld">Goa&#39;uld</option>' in page
    assert 'value="Ma liste SG"' in page  # the list's name, to change before saving
    assert rosters(session) == before


def test_a_choice_then_save_makes_one_list_in_the_carnet(
    browser: TestClient, session: Session
) -> None:
    chosen = preview(browser, texte=TYPED, **{"choix-3": "goauld"})
    assert "choisi : « Goa'uld »" in text_of(chosen)
    assert '<input type="hidden" name="choix-3" value="goauld">' in chosen
    saved = browser.post(
        "/listes/importer/enregistrer",
        data={"texte": TYPED, "systeme": "", "nom": "  Ma  liste ", "choix-3": "goauld"},
    )
    assert saved.status_code == 303
    roster_id = saved.headers["location"].removeprefix("/r/")
    roster = store.get_roster(session=session, roster_id=roster_id)
    assert roster is not None and roster.system == "dcsystem"
    assert roster.document["name"] == "Ma liste"
    assert [(e["unit"], e["count"]) for e in roster.document["entries"]] == [
        ("jaffa", 3),
        ("teal_c", 1),
        ("goauld", 1),
    ]
    assert f'id="roster-{roster_id}"' in browser.get("/listes").text  # in this carnet


def test_a_share_link_of_this_site_is_taken_from_the_share(
    browser: TestClient, session: Session
) -> None:
    document = {"system": "bastos", "name": "Les Impériaux", "entries": []}
    document["entries"] = [{"custom": {"rep": 4, "leader": True, "weapon": "revolver"}, "count": 1}]
    created = create(browser, document)
    code = browser.post(f"/api/v1/rosters/{created['id']}/shares", headers=auth(created))
    code = code.json()["code"]
    export = browser.get(f"/s/{code}.md").text
    page = preview(browser, texte=export)
    assert f'reprise du partage <a href="/s/{code}">{code}</a> de ce site' in page
    saved = browser.post("/listes/importer/enregistrer", data={"texte": export, "systeme": ""})
    assert saved.status_code == 303
    roster = store.get_roster(session=session, roster_id=saved.headers["location"][3:])
    frozen = browser.get(f"/api/v1/shares/{code}").json()["roster"]
    assert roster is not None and roster.document == frozen


def test_a_dropped_json_file_is_read(browser: TestClient) -> None:
    document = {"system": "dcsystem", "name": "Fichier", "entries": [{"unit": "jaffa"}]}
    files = {"fichier": ("liste.json", json.dumps(document).encode(), "application/json")}
    response = browser.post("/listes/importer", data={"texte": "", "systeme": ""}, files=files)
    assert response.status_code == 200
    shown = text_of(response.text)
    assert "1 × Jaffa — 30 pts" in shown
    assert "Toute la liste est reprise du document JSON, telle quelle." in shown
    assert "&#34;name&#34;: &#34;Fichier&#34;" in response.text  # the file, in the box


def test_bad_files_and_texts_say_why_in_french(browser: TestClient, session: Session) -> None:
    before = rosters(session)
    cases = [
        (
            {"fichier": ("liste.txt", b"\xff\xfe3 x Jaffa", "text/plain")},
            {},
            422,
            "n'est pas un texte en UTF-8",
        ),
        (
            {"fichier": ("liste.json", b"3 x Jaffa", "application/json")},
            {},
            422,
            "ne contient pas de JSON",
        ),
        ({}, {"texte": "x" * (520 * 1024)}, 413, "l'import en lit 512 Ko au plus"),
        (
            {},
            {"texte": '{"system": "dcsystem", "entries": []}', "systeme": "infinity"},
            422,
            "pas de « Infinity",
        ),
        ({}, {"texte": "bonjour\nà tous"}, 422, "choisissez le jeu"),
        ({}, {"texte": '{"format": "caserne-carnet", "format_version": 9}'}, 422, "plus récente"),
    ]
    for files, data, status, words in cases:
        response = browser.post(
            "/listes/importer", data={"systeme": "", **data}, files=files or None
        )
        assert response.status_code == status, words
        assert words in text_of(response.text), words
        assert 'role="alert" id="import-error"' in response.text
    refused = browser.post("/listes/importer/enregistrer", data={"texte": "", "systeme": ""})
    assert refused.status_code == 422 and "rien à lire" in text_of(refused.text)
    assert rosters(session) == before


def test_hostile_text_is_shown_as_text(browser: TestClient) -> None:
    page = preview(browser, texte="3 x Jaffa\n<script>alert(1)</script>\n[url=x]2 Teal'c[/url]")
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    shown = text_of(page)
    assert "<script>alert(1)</script> Non reconnue" in shown
    assert "2 × Teal'c — 77 pts chacun, 154 pts (reconnue)" in shown

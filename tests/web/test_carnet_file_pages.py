"""« Télécharger mon carnet » and « Restaurer un carnet » on the pages (issue 30;
docs/carnet-file.md): the browser's carnet downloaded, restored in another browser's carnet
as new lists with a French report, downloaded again the same; every bad file a French
message, nothing stored, never a 500."""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from tests.api.test_carnet_file import ELSEWHERE, canonical, carnet_file, jaffas
from tests.conftest import Apps
from tests.web.test_editor import open_example

RESTORE = "/listes/carnet/restauration"


def download(browser: TestClient) -> dict[str, Any]:
    answer = browser.get("/listes/carnet/fichier")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["cache-control"] == "private, no-store"
    assert answer.headers["content-disposition"].startswith('attachment; filename="carnet-caserne-')
    return answer.json()  # type: ignore[no-any-return]


def upload(browser: TestClient, content: bytes, name: str = "carnet.json") -> Any:
    return browser.post(
        RESTORE,
        files={"fichier": (name, content, "application/json")},
        headers={"Accept": "text/html"},
    )


def lists_of(browser: TestClient) -> int:
    page = browser.get("/listes").text
    return page.count('<article class="card" id="roster-')


def test_the_library_offers_both(browser: TestClient) -> None:
    empty = browser.get("/listes").text
    assert 'id="download-carnet"' not in empty  # no carnet yet: nothing to download
    assert (
        '<a href="/listes/carnet/restauration" id="restore-carnet">Restaurer un carnet</a>' in empty
    )
    assert browser.get("/listes/carnet/fichier").status_code == 404
    open_example(browser, "dcsystem", "feuille_de_bataille_sg")
    page = browser.get("/listes").text
    assert (
        '<a href="/listes/carnet/fichier" id="download-carnet" download>Télécharger mon carnet</a>'
        in page
    )
    form = browser.get(RESTORE)
    assert form.status_code == 200
    assert 'enctype="multipart/form-data"' in form.text and 'name="fichier"' in form.text


def test_downloaded_restored_elsewhere_downloaded_again(browser: TestClient) -> None:
    for system, example in (("dcsystem", "feuille_de_bataille_sg"), ("bastos", None)):
        if example is None:
            browser.post("/listes", data={"system": system})
        else:
            open_example(browser, system, example)
    file = download(browser)
    assert [r["system"] for r in file["rosters"]] == ["dcsystem", "bastos"]
    mine = dict(browser.cookies)
    browser.cookies.clear()  # another browser, no carnet yet
    answer = upload(browser, json.dumps(file).encode())
    assert answer.status_code == 200, answer.text
    assert "Arrivé dans votre carnet : 2 listes, 0 livre d'armée, 0 campagne et 0 ligne" in (
        answer.text
    )
    assert "Feuille de bataille SG</a></li>" in answer.text
    assert lists_of(browser) == 2
    assert canonical(download(browser)) == canonical(file)
    # Restored again: two more, nothing replaced.
    assert upload(browser, json.dumps(file).encode()).status_code == 200
    assert lists_of(browser) == 4
    browser.cookies.clear()
    browser.cookies.update(mine)
    assert lists_of(browser) == 2


NEWER = {"format": "caserne-carnet", "format_version": 3, "rosters": "?"}


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"\xff\xfe\x00not utf-8", "Ce fichier n&#39;est pas un texte en UTF-8"),
        (b"<html>une page</html>", "Ce fichier n&#39;est pas du JSON"),
        (b'{"lists": []}', "Ce fichier n&#39;est pas un carnet de Caserne"),
        (b"[1, 2, 3]", "Ce fichier n&#39;est pas un carnet de Caserne"),
        (json.dumps(NEWER).encode(), "Ce carnet vient d&#39;une version plus récente de Caserne"),
        (
            json.dumps(
                {
                    "format": "caserne-carnet",
                    "format_version": 1,
                    "exported_at": "2026-12-01T00:00:00Z",
                    "rosters": [{"system": "dcsystem", "document": {"name": "\ud800"}}],
                }
            ).encode(),
            "Ce fichier contient un texte ou une valeur que Caserne ne peut pas garder",
        ),
        (
            b'{"format": "caserne-carnet", "format_version": 1, "exported_at": "x"}',
            "Ce fichier de carnet est abîmé (le fichier)",
        ),
        (
            json.dumps(
                {
                    "format": "caserne-carnet",
                    "format_version": 1,
                    "exported_at": "2026-12-01T00:00:00Z",
                    "rosters": [{"system": "dcsystem", "document": []}],
                }
            ).encode(),
            "Ce fichier de carnet est abîmé (liste n° 1)",
        ),
        (
            json.dumps(
                {
                    "format": "caserne-carnet",
                    "format_version": 1,
                    "exported_at": "2026-12-01T00:00:00Z",
                    "gangs": [
                        {
                            "roster": 0,
                            "battles": [
                                {
                                    "battle": 1,
                                    "date": "2026-12-01",
                                    "result": "win",
                                    "fighters": [{"xp": 3}],
                                }
                            ],
                        }
                    ],
                }
            ).encode(),
            "Ce fichier de carnet est abîmé (gang n° 1, bataille n° 1)",
        ),
        (b"[" * 100_000, "Ce fichier n&#39;est pas du JSON"),
        (b"", "Choisissez le fichier d&#39;un carnet"),
    ],
)
def test_a_bad_file_is_said_in_french_and_stores_nothing(
    browser: TestClient, content: bytes, said: str
) -> None:
    answer = upload(browser, content)
    assert answer.status_code == 422, answer.text[:300]
    assert said in answer.text
    assert 'aria-invalid="true"' in answer.text
    assert lists_of(browser) == 0


def test_a_file_too_heavy_is_said_in_french(engine: Engine, session: Session, apps: Apps) -> None:
    client = TestClient(apps.get(engine, session, max_body_bytes=2000))
    client.headers["Sec-Fetch-Site"] = "same-origin"
    answer = upload(client, b" " * 5000)
    assert answer.status_code == 413
    assert "Ce fichier ou ce formulaire est trop lourd : au plus 2 ko." in answer.text
    program = client.post("/api/v1/carnets", content=b" " * 5000)
    assert program.status_code == 413
    assert program.json()["errors"][0]["code"] == "body_too_large"


def test_what_did_not_come_in_is_said(browser: TestClient) -> None:
    file = carnet_file(rosters=[ELSEWHERE, jaffas(0)])
    answer = upload(browser, json.dumps(file).encode())
    assert answer.status_code == 200, answer.text
    assert (
        "<li>Liste n° 1 « Ailleurs » : son système de jeu n&#39;est pas sur ce serveur.</li>"
        in answer.text
    )
    assert lists_of(browser) == 1

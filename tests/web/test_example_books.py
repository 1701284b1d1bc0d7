"""Caserne's own example army books (data/systems/<id>/book.toml, app/example_books.py): one
per system, validated at start-up, marked as Caserne's on its page; every number the page
shows for a unit is what the system's own `cost` endpoint answers for that unit."""

import html
import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.catalogues import CatalogueError, load_books
from app.example_books import BOOK_FILE
from app.systems import registry
from app.systems.base import GameSystem
from app.systems.spec import SystemSpec

SYSTEMS = [spec.id for spec in registry.SPECS]


def sections(page: str) -> dict[str, str]:
    """Each unit's <section> of the page, by unit id."""
    found = re.findall(
        r'<section class="card book-unit[^"]*" id="unit-([a-z0-9_]+)">(.*?)</section>', page, re.S
    )
    return dict(found)


def numbers(fragment: str) -> list[str]:
    """The cost figures a unit's section shows: its title's points and each table cell."""
    title = re.search(r"<h2>(.*?)</h2>", fragment, re.S)
    assert title is not None
    shown = re.findall(r"(\d+) pts", title.group(1))
    shown += re.findall(r'<td class="num">([^<]*)</td>', fragment)
    return shown


def test_every_system_ships_one_valid_example_book(systems: dict[str, GameSystem]) -> None:
    books = load_books(systems)  # type: ignore[arg-type]
    assert sorted(books) == sorted(SYSTEMS)
    for system_id, book in books.items():
        assert book.document.system == system_id
        assert len(book.document.units) == 3
        assert book.validation.valid, system_id


def test_a_broken_example_book_stops_the_start(
    systems: dict[str, GameSystem], tmp_path: Path
) -> None:
    spec = next(s for s in registry.SPECS if s.id == "dcsystem")
    shutil.copytree(spec.data, tmp_path / "dcsystem")
    book = tmp_path / "dcsystem" / BOOK_FILE
    # Level 1 with two slots' worth of items: the engine refuses it, so does the start-up.
    book.write_text(
        book.read_text(encoding="utf-8").replace(
            'definition = { level = 1, items = ["arme_tir_1"] }',
            'definition = { level = 1, items = ["arme_tir_1", "gilet_de_protection"] }',
        ),
        encoding="utf-8",
    )
    broken = SystemSpec(id="dcsystem", build=spec.build, data_dir=tmp_path / "dcsystem")
    with pytest.raises(CatalogueError) as raised:
        load_books(systems, [broken])  # type: ignore[arg-type]
    assert raised.value.problems == [
        "dcsystem/book.toml: unit 'marine': Niveau 1 : 2 capacités ou équipements pour 1 "
        "autorisé(s), 1 de trop."
    ]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_number_of_an_example_book_page_is_the_systems_cost(
    client: TestClient, system_id: str
) -> None:
    books = client.app.state.example_books  # type: ignore[attr-defined]
    book = books[system_id]
    listing = client.get("/livres").text
    assert f'<a href="/livres/exemples/{system_id}">{html.escape(book.document.name)}</a>' in (
        listing
    )
    page = client.get(f"/livres/exemples/{system_id}")
    assert page.status_code == 200
    assert 'id="caserne-example"' in page.text and "Livre d'exemple de Caserne" in page.text
    shown = sections(page.text)
    assert list(shown) == [unit.id for unit in book.document.units]
    for unit in book.document.units:
        expected: list[str] = []
        if system_id == "infinity":
            answers = []
            for option in unit.definition["options"]:
                body = {"unit": unit.definition, "option": option["id"]}
                cost = client.post(f"/api/v1/systems/{system_id}/cost", json=body).json()
                assert cost["valid"], cost
                answers.append((cost["points"], cost["derived"]["swc"]))
            expected.append(str(min(points for points, _swc in answers)))
            for points, swc in answers:
                expected += [str(points), f"{float(swc):g}"]
        else:
            cost = client.post(f"/api/v1/systems/{system_id}/cost", json=unit.definition).json()
            assert cost["valid"], cost
            if cost["breakdown"] or cost["points"]:
                expected.append(str(cost["points"]))
                expected += [str(line["points"]) for line in cost["breakdown"]]
            assert sum(line["points"] for line in cost["breakdown"]) == cost["points"]
        assert numbers(shown[unit.id]) == expected, (system_id, unit.id)
    if system_id == "dcsystem":  # L125-127: the Jaffa, 15 + 10 + 3
        assert numbers(shown["jaffa"]) == ["28", "15", "10", "3"]
    if system_id == "infinity":  # the cheapest option, then each option's points and SWC
        assert numbers(shown["chasseur"]) == ["14", "14", "0", "15", "0.5"]


def test_an_example_book_is_duplicated_into_the_carnet(browser: TestClient) -> None:
    copied = browser.post("/livres/exemples/nolimits/dupliquer")
    assert copied.status_code == 303
    location = copied.headers["location"]
    page = browser.get(location).text
    assert "Éclaireurs de la Marche (copie)" in page
    # No Limits (docs/nolimits-points.md): 28, 46, 37, as the example's page says.
    for unit_id, points in (("fantassin", 28), ("veteran", 46), ("duelliste", 37)):
        assert re.search(rf'id="unit-{unit_id}">\s*<h2>[^<]*<span class="num">— {points} pts', page)
    assert browser.get("/livres/exemples/nope").status_code == 404
    assert browser.post("/livres/exemples/nope/dupliquer").status_code == 404

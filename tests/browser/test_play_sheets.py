"""Issue 18: each system's example list's play sheet printed to A4 by Chromium, compact
mode, and a 50-entry DCSystem list on 3 pages at most; axe finds nothing on the sheets."""

import io
import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page
from pypdf import PdfReader

from app.systems.registry import registered
from app.systems.sheet import load_sheet_data
from tests.browser.helpers import run_axe
from tests.conftest import SYSTEMS

pytestmark = pytest.mark.browser


# CASERNE_SHEET_PDFS=<folder>: the PDFs printed are kept there (docs/screenshots/ are made
# from them with pdftoppm).
KEEP = os.environ.get("CASERNE_SHEET_PDFS")


def print_a4(page: Page, name: str) -> PdfReader:
    """The page printed to A4 by Chromium, read by pypdf."""
    pdf = page.pdf(format="A4", print_background=True)
    if KEEP:
        Path(KEEP).mkdir(parents=True, exist_ok=True)
        (Path(KEEP) / f"{name}.pdf").write_bytes(pdf)
    return PdfReader(io.BytesIO(pdf))


def printed(page: Page, name: str) -> int:
    return len(print_a4(page, name).pages)


def share(page: Page, document: dict[str, Any]) -> str:
    created = page.request.post("/api/v1/rosters", data=document)
    assert created.status == 201, created.text()
    body = created.json()
    shared = page.request.post(
        f"/api/v1/rosters/{body['id']}/shares",
        headers={"Authorization": f"Bearer {body['edit_token']}"},
    )
    assert shared.status == 201, shared.text()
    return f"/s/{shared.json()['code']}"


# DCSystem's SG list: fighters with white dice (the odds table is the shooters').
EXAMPLES = {"dcsystem": "feuille_de_bataille_sg"}


def example(page: Page, system: str) -> dict[str, Any]:
    catalogue = page.request.get(f"/api/v1/systems/{system}/catalogue").json()
    examples = catalogue["examples"]
    chosen = next((e for e in examples if e["id"] == EXAMPLES.get(system)), examples[0])
    return dict(chosen["document"])


def fifty_dcsystem_entries(page: Page) -> dict[str, Any]:
    """A 50-entry list: every published DCSystem profile in turn, one figure each."""
    catalogue = page.request.get("/api/v1/systems/dcsystem/catalogue").json()
    units = [unit["id"] for unit in catalogue["units"]]
    entries = [{"unit": units[i % len(units)], "count": 1} for i in range(50)]
    return {
        "system": "dcsystem",
        "name": "Cinquante entrées",
        "points_limit": 3000,
        "entries": entries,
    }


def sheet_pieces(system: str) -> list[str]:
    """What the sheet of a system not listed below prints, from its sheet.toml: each quick
    reference's title, each rule's text (its example names them all), its profile columns."""
    spec = registered(system)
    assert spec is not None, system
    data = load_sheet_data(spec.data)
    columns = ["\t".join(data.profile_columns)] if data.profile_columns else []
    return [*(r.title for r in data.references), *(r.text for r in data.rules), *columns]


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_example_sheet_prints_its_tables_and_texts(page: Page, system: str) -> None:
    sheet = share(page, example(page, system)) + "/feuille"
    page.goto(sheet)
    text = page.locator("#sheet").inner_text()
    expected = {
        # L258, L229-230, L212: a capacity's text, the wound table, the dice named in words.
        "dcsystem": [
            "Commandement",
            "La figurine peut donner 1 des ses dés bleus",
            "la cible perd 1 point de vie",
            "rouges",
            "Chance d'infliger au moins 1 PV",
        ],
        # L113: the eight columns; L259-260: the damage track's boxes.
        "nolimits": [
            "AC\tCT\tCC\tFO\tEN\tPV\tCO\tSV",
            "Quand une case MV est cochée",
            "Indicateur de dégâts",
        ],
        # L14: orders; the groups' order pools as boxes.
        "infinity": [
            "Réserves d'ordres",
            "Groupe 1 — 9 ordres",
            "MOV\tCC\tTR\tPH\tVOL\tBL\tB",
            "Courage ou Remote Presence",
        ],
        # L356-406: the Feuille de Référence.
        "bastos": [
            "Tableau de tir (1 dé + Rep)",
            "Raide Mort !",
            "Test Pris pour Cible (2 dés)",
            "Les leaders utilisent un dé de leader",
        ],
        # L38-49, L6-35: to-hit table, modifiers, sequence; the book's nine columns.
        "necrowarzone": [
            "M\tCC\tCT\tF\tE\tPV\tI\tA\tCd",
            "Jet pour toucher",
            "Modificateurs de tir",
            "Séquence du tour",
            "Pour toucher selon la CT",
        ],
    }.get(system) or sheet_pieces(system)
    for piece in expected:
        assert piece in text, (system, piece)
    assert run_axe(page) == []
    pages = printed(page, f"sheet-{system}")
    print(f"{system}: {pages} A4 pages")
    assert 1 <= pages <= 6, pages


def test_an_invalid_list_says_so_on_paper(page: Page) -> None:
    document = fifty_dcsystem_entries(page) | {"points_limit": 100}
    page.goto(share(page, document) + "/feuille")
    page.emulate_media(media="print")
    banner = page.locator("#invalid-banner")
    assert banner.is_visible()
    assert "Liste non valide" in banner.inner_text()
    assert "100" in banner.inner_text()  # the error names the limit


def test_fifty_dcsystem_entries_fit_on_three_pages_in_compact_mode(page: Page) -> None:
    code = share(page, fifty_dcsystem_entries(page))
    page.goto(code + "/feuille?compacte=1")
    cards = page.locator(".sheet-card h3").all_inner_texts()
    assert sum(int(t.split(" ×")[0]) for t in cards) == 50  # every figure, identical ones once
    assert len(cards) < 50
    assert page.locator("dl.glossary dt").count() > 5  # each rule once, at the end
    assert page.locator(".sheet-card dl.sheet-rules").count() == 0
    compact = printed(page, "sheet-dcsystem-50-compact")
    page.goto(code + "/feuille")
    full = printed(page, "sheet-dcsystem-50-full")
    print(f"50 DCSystem entries: compact {compact} A4 pages, full {full}")
    assert compact <= 3
    assert full > compact

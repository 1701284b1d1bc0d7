"""Every text a play sheet prints comes from the rule text, at the line it cites
(data/systems/<id>/sheet.toml: `source` = L256, L229-234, or several ranges)."""

import re

import pytest

from app.settings import ROOT
from app.systems.registry import SPECS
from app.systems.sheet import SheetData, load_sheet_data

RULES = ROOT.parent / "shared" / "rules"
if not RULES.is_dir():  # a worktree: ../shared beside it
    RULES = ROOT / ".." / "shared" / "rules"
SYSTEMS = [spec.id for spec in SPECS]


def squeeze(text: str) -> str:
    """Compared without whitespace, case or apostrophe style: the text's PDF extraction
    split words (« inf érieur », « Sonn é »)."""
    return re.sub(r"\s+", "", text.replace("’", "'").replace("“", '"').replace("”", '"')).casefold()


def cited(lines: list[str], source: str) -> str:
    """The lines a source cites, joined: "L229-234, L249" → lines 229 to 234 and 249."""
    found = re.findall(r"L(\d+)(?:[-–](\d+))?", source)
    assert found, f"no line cited in {source!r}"
    text = []
    for first, last in found:
        text += lines[int(first) - 1 : int(last or first)]
    return squeeze(" ".join(text))


def sheet(system_id: str) -> tuple[SheetData, list[str]]:
    spec = next(spec for spec in SPECS if spec.id == system_id)
    data = load_sheet_data(spec.data)
    # A system kept outside app/ (the test suite's own) ships its rule text beside its data.
    beside = spec.data / data.rules_file if data.rules_file else None
    path = beside if beside is not None and beside.is_file() else RULES / data.rules_file
    if not path.is_file():
        pytest.skip(f"{path} not found (the shared rule texts)")
    return data, path.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_rule_text_is_quoted_from_its_line(system_id: str) -> None:
    data, lines = sheet(system_id)
    assert data.rules, system_id
    for rule in data.rules:
        assert squeeze(rule.text) in cited(lines, rule.source), (rule.name, rule.source)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_every_reference_cell_is_quoted_from_its_lines(system_id: str) -> None:
    data, lines = sheet(system_id)
    assert data.references, system_id
    for reference in data.references:
        text = cited(lines, reference.source)
        # The header is Caserne's column labels, not a quotation.
        for cell in [*(c for row in reference.rows for c in row), *reference.lines]:
            assert squeeze(cell) in text, (reference.id, cell)


# A side of a two-sided row: « A couvert : … A découvert : … », a label opening a sentence.
SIDE = re.compile(r"(?:^|[.!;] )([A-ZÀ-Ý][\w' éèàû-]{1,25}) : ")


def cited_lines(lines: list[str], source: str) -> list[str]:
    found = re.findall(r"L(\d+)(?:[-–](\d+))?", source)
    return [line for first, last in found for line in lines[int(first) - 1 : int(last or first)]]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_two_sided_row_prints_both_sides(system_id: str) -> None:
    """Issue 26 item 13: Bastos' « Pris pour Cible » printed only « A couvert » of its
    « 2 réussites » and « 1 réussite » rows (pour-quelques-bastos-de-plus.fr.txt L398:
    « A couvert : si surclassé, riposte, mais à Rep -1 ; sinon riposte normalement. A
    découvert : si surclassé et en mouvement rapide, … », L402: « A couvert : si surclassé,
    plonge à couvert ; … A découvert : si surclassé, se met à plat-ventre ; … »). A cell
    quoting a line of two labelled sides quotes every side."""
    data, lines = sheet(system_id)
    for reference in data.references:
        source = cited_lines(lines, reference.source)
        for cell in (c for row in reference.rows for c in row):
            line = next((line for line in source if squeeze(cell) in squeeze(line)), "")
            sides = SIDE.findall(line)
            if len(sides) >= 2:
                assert all(squeeze(f"{side} :") in squeeze(cell) for side in sides), (
                    reference.id,
                    cell,
                )


def test_the_dcsystem_wound_table_is_c3() -> None:
    # L230-232: « 2 dés réussis => la cible perd 1 point de vie », then 3 → 2, 4 → 3.
    data, _ = sheet("dcsystem")
    wounds = next(r for r in data.references if r.id == "blessures")
    assert wounds.rows == [
        ["2", "la cible perd 1 point de vie"],
        ["3", "la cible perd 2 points de vie"],
        ["4", "la cible perd 3 points de vie"],
    ]
    solidaire = next(r for r in data.rules if r.name == "Solidaire")  # L267
    assert solidaire.text.startswith("A tout moment de la partie, la figurine peut recevoir un tir")

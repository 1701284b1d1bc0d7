"""What a save changed, in a player's words (issue 30, docs/history.md): each kind of change
of a list said once, by the names a player reads, bounded, and a count-only change told
apart (it merges with the next)."""

from typing import Any

from app.roster_history import SUMMARY_LINES, changes, matched_entries
from app.systems.base import GameSystem

MARINE = {"level": 1, "items": ["arme_tir_1"]}
TOUGHER = {"level": 2, "items": ["arme_tir_1"]}


def listed(*entries: dict[str, Any], **head: Any) -> dict[str, Any]:
    return {
        "system": "dcsystem",
        "name": head.get("name", "Chulak"),
        "points_limit": head.get("points_limit", 200),
        "entries": list(entries),
        "extras": head.get("extras", {}),
    }


JAFFA = {"unit": "jaffa", "count": 2}
TEALC = {"unit": "teal_c", "count": 1}


def test_counts_alone_say_each_entry_and_can_merge(dcsystem: GameSystem) -> None:
    said = changes(
        dcsystem, listed(JAFFA, TEALC), listed({**JAFFA, "count": 3}, {**TEALC, "count": 2})
    )
    assert said.lines == ["Jaffa 2 → 3", "Teal'c 1 → 2"]
    assert said.counts == {"0": ["Jaffa", 2, 3], "1": ["Teal'c", 1, 2]}


def test_adds_removals_renames_and_the_head(dcsystem: GameSystem) -> None:
    before = listed(JAFFA, TEALC)
    after = listed(
        {**JAFFA, "count": 4, "name": "Garde de Chulak"},
        {"custom": MARINE, "name": "Marine", "count": 3},
        name="Abydos",
        points_limit=None,
    )
    said = changes(dcsystem, before, after)
    assert said.lines == [
        "Garde de Chulak 2 → 4",
        "Nom : « Chulak » → « Abydos »",
        "Format : 200 points → sans limite",
        "Jaffa renommé « Garde de Chulak »",
        "Marine ajouté (× 3)",
        "Teal'c retiré",
    ]
    assert said.counts is None  # not counts alone: it merges with nothing


def test_an_entry_changed_a_reorder_and_options(dcsystem: GameSystem) -> None:
    marine = {"custom": MARINE, "name": "Marine", "count": 1}
    tougher = {**marine, "custom": TOUGHER}
    assert changes(dcsystem, listed(marine), listed(tougher)).lines == ["Marine modifié"]
    assert changes(dcsystem, listed(JAFFA, TEALC), listed(TEALC, JAFFA)).lines == [
        "Ordre des combattants changé"
    ]
    hidden = {"hidden_moves": ["traitre"]}
    assert changes(dcsystem, listed(JAFFA), listed(JAFFA, extras=hidden)).lines == [
        "Options de la liste modifiées"
    ]
    assert changes(dcsystem, listed(JAFFA), listed(JAFFA)).lines == ["Aucun changement"]


def test_a_units_new_book_version_is_named(dcsystem: GameSystem) -> None:
    drawn = {
        "custom": MARINE,
        "name": "Marine",
        "count": 2,
        "source": {"book": "aaaa", "unit": "marine"},
    }
    updated = {**drawn, "custom": TOUGHER, "source": {"book": "bbbb", "unit": "marine"}}

    def book(code: str) -> tuple[str, int] | None:
        return {"bbbb": ("Marines de Kessel", 4)}.get(code)

    said = changes(dcsystem, listed(drawn), listed(updated), book=book)
    assert said.lines == ["Marine mis à jour depuis le livre « Marines de Kessel » v4"]


def test_a_summary_is_bounded(dcsystem: GameSystem) -> None:
    before = listed(*({"custom": MARINE, "name": f"M{n}", "count": 1} for n in range(40)))
    after = listed()
    said = changes(dcsystem, before, after)
    assert len(said.lines) == SUMMARY_LINES
    assert said.lines[:2] == ["M0 retiré", "M1 retiré"]
    assert said.lines[-1] == "… et 29 autres changements"


def test_entries_are_matched_by_id_then_content_then_identity() -> None:
    a = {"id": "x1", "unit": "jaffa", "count": 1}
    b = {"unit": "teal_c", "count": 1}
    c = {"unit": "prima_jaffa", "count": 1, "name": "Bra'tac"}
    moved = {"id": "x1", "unit": "jaffa", "count": 5, "name": "Rak'nor"}
    changed_c = {**c, "options": ["x"]}
    assert matched_entries([a, b, c], [changed_c, moved]) == [(2, 0), (0, 1), (1, None)]

"""Exports of a shared roster: exact text, and user text that cannot inject markup."""

from typing import Any

import pytest

from app.exports import to_bbcode, to_markdown, to_text
from app.exports.markdown import escape
from app.systems.base import GameSystem, RosterSummary

URL = "https://caserne.example/s/abcd2345"


def summary_of(system: GameSystem, document: dict[str, Any]) -> RosterSummary:
    roster = system.roster_model.model_validate(document)
    return system.summarize(roster, system.validate(roster))


@pytest.fixture
def sg_sheet(dcsystem: GameSystem) -> RosterSummary:
    example = next(e for e in dcsystem.example_rosters() if e.id == "feuille_de_bataille_sg")
    return summary_of(dcsystem, example.document)


def test_bbcode_of_the_sg_battle_sheet(sg_sheet: RosterSummary) -> None:
    # L32-37 "Feuille de bataille SG / 1 Leader 50 points / 3 membres 90 points /
    # 1 médecin 48 points / coups caché: raide aérien 15 points / total 203 points"
    red, blue, grey = "#c0392b", "#1f5fa8", "#7f8c8d"
    one_blue = (
        f"[color={red}]4 rouges[/color], [color={blue}]1 bleu[/color], "
        f"[color={grey}]2 blancs[/color]"
    )
    assert to_bbcode(sg_sheet, URL) == (
        "[b]Feuille de bataille SG[/b] — Dices & Colors System — Stargate's War\n"
        "[b]Total : 203 / 200 points[/b]\n"
        "[color=#c0392b][b]Liste non valide[/b][/color]\n"
        "\n"
        "[b]1 × Chef de groupe SG[/b] — 50 pts\n"
        "Niveau 3 — Arme de tir niveau 2, Élite, Gilet de protection / armure / écailles, "
        f"Déterminé, Commandement — [color={red}]4 rouges[/color], [color={blue}]4 bleus[/color], "
        f"[color={grey}]2 blancs[/color]\n"
        "[b]3 × Membre groupe SG[/b] — 30 pts chacun, 90 pts\n"
        f"Niveau 2 — Arme de tir niveau 2, Gilet de protection / armure / écailles — {one_blue}\n"
        "[b]1 × Médecin / infirmier groupe SG[/b] — 48 pts\n"
        "Niveau 2 — Arme de tir niveau 2, Élite, Gilet de protection / armure / écailles, Soin — "
        f"{one_blue}\n"
        "[b]Coup caché : Raid aérien[/b] — 15 pts\n"
        "[i]Erreur : 203 points pour un format de 200 (3 de trop).[/i]\n"
        "[size=85]Coûts des profils publiés : tels qu'imprimés dans les listes d'armée.[/size]\n"
        "\n"
        f"[url={URL}]Voir cette liste sur Caserne[/url]\n"
    )


def test_text_export(sg_sheet: RosterSummary) -> None:
    text = to_text(sg_sheet, URL)
    assert text.splitlines()[:6] == [
        "Feuille de bataille SG",
        "Dices & Colors System — Stargate's War",
        "Total : 203 / 200 points",
        "Liste non valide",
        "",
        "1 x Chef de groupe SG - 50 pts",
    ]
    assert "3 x Membre groupe SG - 30 pts chacun, 90 pts" in text
    assert text.endswith(f"\n{URL}\n")


def test_markdown_export(sg_sheet: RosterSummary) -> None:
    markdown = to_markdown(sg_sheet, URL)
    assert markdown.startswith(
        "# Feuille de bataille SG\n\n*Dices & Colors System — Stargate's War*\n"
    )
    assert "- **3 × Membre groupe SG** — 30 pts chacun, 90 pts" in markdown
    assert markdown.endswith(f"[Voir cette liste sur Caserne]({URL})\n")


def test_reinforcements_are_grouped(dcsystem: GameSystem) -> None:
    example = next(
        e for e in dcsystem.example_rosters() if e.id == "feuille_de_bataille_replicateurs"
    )
    bbcode = to_bbcode(summary_of(dcsystem, example.document), URL)
    assert "[b]8 × Réplicateur[/b] — 18 pts chacun, 144 pts\n" in bbcode
    assert "[u]Renfort (non compté)[/u]\n[b]2 × Réplicateur[/b] — 18 pts chacun, 36 pts\n" in bbcode
    assert "[b]Total : 199 / 200 points[/b]" in bbcode


HOSTILE = (
    "[/b][url=http://evil.example]clic[/url][img]x[/img]\n[b]<script>alert(1)</script> *gras* _x_"
)


def hostile_summary(dcsystem: GameSystem) -> RosterSummary:
    return summary_of(
        dcsystem,
        {
            "system": "dcsystem",
            "name": HOSTILE,
            "entries": [{"unit": "jaffa", "name": HOSTILE[:80]}],
        },
    )


def test_user_text_cannot_open_bbcode_tags(dcsystem: GameSystem) -> None:
    bbcode = to_bbcode(hostile_summary(dcsystem), URL)
    # The only tags are the exporter's own: every user bracket became a full-width one.
    assert "evil.example]" not in bbcode
    assert "［url=http://evil.example］clic［/url］［img］x［/img］ ［b］" in bbcode
    assert bbcode.count("[url=") == 1
    assert "\n[b]<script>" not in bbcode  # the newline in the name was folded


def test_user_text_cannot_inject_markdown_or_html(dcsystem: GameSystem) -> None:
    markdown = to_markdown(hostile_summary(dcsystem), URL)
    assert "<script>" not in markdown
    assert "\\<script\\>alert(1)\\</script\\>" in markdown
    assert "\\[url=http://evil.example\\]" in markdown
    assert "\\*gras\\*" in markdown
    assert markdown.count("](") == 1  # the link back is the only link


def test_markdown_escapes_only_what_commonmark_reads_as_markup() -> None:
    assert escape("Équipe SG-1 (Dices & Colors)") == "Équipe SG-1 (Dices & Colors)"
    assert escape("a *b* _c_ `d` [e](f) <g> ~~h~~ |i|") == (
        "a \\*b\\* \\_c\\_ \\`d\\` \\[e\\](f) \\<g\\> \\~\\~h\\~\\~ \\|i\\|"
    )
    assert escape("&amp; &#33; & x") == "\\&amp; \\&#33; & x"
    # Block syntax only where a line starts.
    assert escape("- liste", line_start=True) == "\\- liste"
    assert escape("# titre", line_start=True) == "\\# titre"
    assert escape("> cité", line_start=True) == "\\> cité"
    assert escape("1. un", line_start=True) == "1\\. un"
    assert escape("a - b # c") == "a - b # c"
    assert escape("Escouade #") == "Escouade \\#"  # not a heading's closing sequence


def test_markdown_entry_lines_break_and_keep_rule_references_out(sg_sheet: RosterSummary) -> None:
    markdown = to_markdown(sg_sheet, URL)
    head = "- **3 × Membre groupe SG** — 30 pts chacun, 90 pts"
    start = markdown.index(head)
    entry = markdown[start : markdown.index("\n- ", start + 1)].splitlines()
    assert entry[0] == head + "\\"  # a hard line break inside the entry
    assert entry[1].startswith("  Niveau ")
    issue = RosterSummary.model_validate(
        {
            **sg_sheet.model_dump(),
            "lines": [
                {
                    **sg_sheet.lines[0].model_dump(),
                    "issues": [
                        {
                            "severity": "error",
                            "code": "missing_cu",
                            "message": "« Laser » : pas de CU (L155-156) ; portée (PC, L157-162).",
                            "path": "entries[0]",
                        }
                    ],
                }
            ],
        }
    )
    text = to_markdown(issue, URL)
    assert "*Erreur : « Laser » : pas de CU ; portée (PC).*" in text
    assert "L155" not in text and "L157" not in text

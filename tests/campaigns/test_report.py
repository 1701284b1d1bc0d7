"""« Rapport de bataille »: the exact BBCode a player posts after a game."""

from app.campaigns.report import battle_bbcode


def test_the_report_of_a_battle() -> None:
    line = {
        "battle": 3,
        "date": "2026-12-01",
        "opponent": "Les Goliaths [b]",
        "scenario": "Embuscade",
        "result": "loss",
        "points": None,
        "fighters": [
            {"entry": 1, "name": "Ganger 1", "xp": 20, "changes": [], "rep": None, "state": None},
            {
                "entry": 4,
                "name": "Ganger 4",
                "xp": 0,
                "changes": [{"stat": "CT", "by": -1, "cause": "Œil crevé"}],
                "rep": None,
                "state": "dead",
            },
        ],
        "recruits": ["Bleu"],
        "notes": "Une partie serrée.",
        "corrects": None,
    }
    assert battle_bbcode("Les Orlocks", line, "https://caserne.test/s/abc/campagne") == (
        "[b]Rapport de bataille — Les Orlocks[/b]\n"
        "Bataille 3 — 1er décembre 2026 — contre Les Goliaths ［b］ — [b]Défaite[/b]\n"
        "Scénario : Embuscade\n"
        "[list]\n"
        "[*][b]Ganger 1[/b] : +20 XP\n"
        "[*][b]Ganger 4[/b] : CT −1 (Œil crevé), mort\n"
        "[/list]\n"
        "Recrues : Bleu\n"
        "[quote]Une partie serrée.[/quote]\n"
        "\n"
        "[url=https://caserne.test/s/abc/campagne]Le gang sur Caserne[/url]\n"
    )


def test_a_correction_and_a_score() -> None:
    line = {
        "battle": 4,
        "date": "2026-11-30",
        "opponent": "",
        "result": "win",
        "points": 24,
        "fighters": [
            {"entry": 2, "name": "Ganger 2", "xp": -27, "changes": [], "rep": None, "state": None}
        ],
        "recruits": [],
        "notes": "",
        "corrects": 3,
        "scenario": "",
    }
    assert battle_bbcode("SG-1", line, "u") == (
        "[b]Rapport de bataille — SG-1[/b]\n"
        "Correction — 30 novembre 2026 — [b]Victoire[/b]\n"
        "[i]Corrige la bataille 3.[/i]\n"
        "Score : 24 pts\n"
        "[list]\n"
        "[*][b]Ganger 2[/b] : −27 XP\n"
        "[/list]\n"
        "\n"
        "[url=u]Le gang sur Caserne[/url]\n"
    )


def test_the_report_renders_in_a_real_bbcode_parser() -> None:
    """bbcode (a maintained phpBB-style parser) renders every tag the report opens, and a
    bracket typed by a player opens none."""
    import bbcode

    line = {
        "battle": 3,
        "date": "2026-12-01",
        "opponent": "Les [b]Goliaths",
        "scenario": "",
        "result": "loss",
        "points": None,
        "fighters": [
            {"entry": 1, "name": "Ganger 1", "xp": 20, "changes": [], "rep": None, "state": None}
        ],
        "recruits": [],
        "notes": "Serré.",
        "corrects": None,
    }
    html = bbcode.Parser().format(
        battle_bbcode("Les Orlocks", line, "https://caserne.test/campagne/gang/abc")
    )
    assert html == (
        "<strong>Rapport de bataille — Les Orlocks</strong><br />"
        "Bataille 3 — 1er décembre 2026 — contre Les ［b］Goliaths — <strong>Défaite</strong><br />"
        "<ul><li><strong>Ganger 1</strong> : +20 XP</li></ul>"
        "<blockquote>Serré.</blockquote><br />"
        '<a rel="nofollow" href="https://caserne.test/campagne/gang/abc">Le gang sur Caserne</a>'
        "<br />"
    )


def test_a_cause_is_as_typed_on_a_page_and_escaped_in_the_post() -> None:
    """The gang's page showed « ［Coup de crosse］ » for a cause typed with brackets: the
    BBCode escape belongs to the post only (the page's template escapes HTML)."""
    from app.campaigns.report import fighter_text
    from app.exports.bbcode import escape

    fighter = {"changes": [{"stat": "CT", "by": -1, "cause": "[Coup de crosse]"}], "xp": 5}
    assert fighter_text(fighter) == "+5 XP, CT −1 ([Coup de crosse])"
    assert fighter_text(fighter, escape) == "+5 XP, CT −1 (［Coup de crosse］)"

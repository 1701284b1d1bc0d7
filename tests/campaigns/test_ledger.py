"""The campaign engine: a ledger's lines applied to a gang, validated by the system's own
engine (Lnn = line of ../shared/rules/necromunda-warzone.fr.txt unless named)."""

from typing import Any

import pytest

from app.campaigns.ledger import (
    FighterOutcome,
    LedgerError,
    Line,
    StatChange,
    active_document,
    apply,
    standings,
    states_after,
)
from app.campaigns.service import traits_of


def figure(xp: int, leader: bool = False) -> dict[str, Any]:
    profile = {"M": 4, "CC": 3, "CT": 3, "F": 3, "E": 3, "PV": 1, "I": 3, "A": 1, "Cd": 7}
    return {"leader": leader, "xp": xp, "light_wounds": 0, "profile": profile}


def gang() -> dict[str, Any]:
    """A chef and eight gangers: nine figures."""
    entries = [{"name": "Chef", "custom": figure(60, leader=True)}]
    entries += [
        {"name": f"Ganger {n}", "custom": figure(90 if n == 1 else 20)} for n in range(1, 9)
    ]
    return {
        "system": "necrowarzone",
        "name": "Les Orlocks",
        "points_limit": None,
        "entries": entries,
    }


def validate(systems: Any, document: dict[str, Any], states: list[str]) -> Any:
    system = systems["necrowarzone"]
    return system.validate(system.roster_model.model_validate(active_document(document, states)))


def test_xp_crosses_100_and_a_death_drops_the_rout_threshold(systems: Any) -> None:
    document, states = gang(), ["active"] * 9
    before = validate(systems, document, states)
    # L10 « 101-400 ... 3 »; L9 « 0-100 ... 2 »: Ganger 1 has 90 XP, 2 actions.
    assert before.entries[1].derived.actions == 2
    # L84 « 25% ou plus d’un gang »: 9 figures → 3 down or out call for the test.
    assert before.derived.rout_threshold == 3
    document, states, _ = apply(
        traits_of("necrowarzone"), document, states, [FighterOutcome(entry=1, xp=11)]
    )
    after = validate(systems, document, states)
    assert document["entries"][1]["custom"]["xp"] == 101
    assert after.entries[1].derived.actions == 3
    document, states, _ = apply(
        traits_of("necrowarzone"), document, states, [FighterOutcome(entry=5, state="dead")]
    )
    dead = validate(systems, document, states)
    assert states[5] == "dead"
    assert len(document["entries"]) == 9  # the dead stays in the document...
    assert dead.derived.figures == 8  # ...and leaves every total
    assert dead.derived.rout_threshold == 2  # 8 figures: 2 is 25 %


def test_a_light_wound_and_a_change_with_its_cause(systems: Any) -> None:
    # L78 « Blessure légère -1CC/-1CT/-1 Action (minimum 1) »
    outcome = FighterOutcome(
        entry=2,
        changes=(
            StatChange("light_wounds", 1, "Blessure légère"),
            StatChange("CT", -1, "Œil crevé"),
        ),
    )
    document, states, _ = apply(traits_of("necrowarzone"), gang(), [], [outcome])
    assert document["entries"][2]["custom"]["light_wounds"] == 1
    assert document["entries"][2]["custom"]["profile"]["CT"] == 2
    result = validate(systems, document, states)
    assert result.entries[2].derived.actions == 1  # 2 − 1, L78
    assert result.entries[2].derived.effective_ct == 1


def test_bastos_rep_4_to_5(systems: Any) -> None:
    band = {
        "system": "bastos",
        "name": "Baby Face",
        "points_limit": None,
        "entries": [
            {
                "name": "Baby Face",
                "custom": {"rep": 4, "leader": True, "star": False, "weapon": "mitraillette"},
            }
        ],
    }
    document, _, _ = apply(traits_of("bastos"), band, [], [FighterOutcome(entry=0, rep=5)])
    assert document["entries"][0]["custom"]["rep"] == 5
    assert band["entries"][0]["custom"]["rep"] == 4  # the input is untouched


def test_refusals_name_their_field() -> None:
    with pytest.raises(LedgerError) as caught:
        apply(traits_of("necrowarzone"), gang(), [], [FighterOutcome(entry=9, xp=1)])
    assert caught.value.path == ("fighters", 0, "entry")
    with pytest.raises(LedgerError) as caught:
        apply(
            traits_of("necrowarzone"),
            gang(),
            [],
            [FighterOutcome(entry=0, changes=(StatChange("Rep", 1, "x"),))],
        )
    assert caught.value.code == "unknown_stat"
    with pytest.raises(LedgerError) as caught:
        apply(
            traits_of("dcsystem"),
            {"entries": [{"custom": {"level": 1, "items": []}}]},
            [],
            [FighterOutcome(entry=0, xp=5)],
        )
    assert caught.value.code == "no_xp"


def test_recruits_join_active_and_a_correction_adds_up() -> None:
    recruit = {"name": "Bleu", "custom": figure(0)}
    document, states, _ = apply(
        traits_of("necrowarzone"), gang(), [], [FighterOutcome(entry=3, xp=40)], [recruit]
    )
    assert len(document["entries"]) == 10 and states[9] == "active"
    # A mistaken +40 corrected to +4 by a new line of −36: both lines stay.
    document, states, _ = apply(
        traits_of("necrowarzone"), document, states, [FighterOutcome(entry=3, xp=-36)]
    )
    assert document["entries"][3]["custom"]["xp"] == 24


def test_standings_three_gangs_four_battles() -> None:
    """Computed by hand: A beat B, A drew C, C beat B, B beat an outsider; then A's line
    against C is corrected into a win."""
    lines = {
        "a": [
            Line(1, "win", (FighterOutcome(0, xp=10),), campaign="k", opponent_roster="b"),
            Line(2, "draw", (FighterOutcome(1, state="dead"),), campaign="k", opponent_roster="c"),
            Line(3, "win", (FighterOutcome(0, xp=-5),), campaign="k", corrects=2),
        ],
        "b": [Line(1, "win", (FighterOutcome(0, xp=7),), points=12, campaign="k")],
        "c": [
            Line(1, "win", (), points=30, campaign="k", opponent_roster="b"),
            Line(2, "win", (), campaign="other"),
        ],
    }
    gangs = [("a", "Alpha", None), ("b", "Bravo", None), ("c", "Charlie", None)]
    table = standings("k", gangs, lines, {"a": [1, 2], "b": [1], "c": [1]})
    rows = [
        (s.roster, s.battles, s.wins, s.draws, s.losses, s.points, s.xp, s.fighters_lost)
        for s in table
    ]
    assert rows == [
        ("a", 2, 2, 0, 0, 0, 5, 2),
        ("c", 2, 1, 0, 1, 30, 0, 0),
        ("b", 3, 1, 0, 2, 12, 7, 0),
    ]


def test_states_after_the_ledger() -> None:
    lines = [
        Line(1, "win", (FighterOutcome(0, state="recovering"),)),
        Line(2, "loss", (FighterOutcome(0, state="active"), FighterOutcome(1, state="retired"))),
    ]
    assert states_after(lines, 3) == ["active", "retired", "active"]


def test_one_figure_of_five_leaves_his_entry_when_figures_are_apart() -> None:
    """Issue 26 item 6: one of « 5 × Ganger » dies, another gains XP; each becomes an entry
    of his own right after the three left, who keep their state (they were convalescent)."""
    five = {"id": "g5", "name": "Ganger", "count": 5, "custom": figure(10)}
    document = {"system": "necrowarzone", "name": "G", "entries": [five]}
    outcomes = [FighterOutcome(entry=0, state="dead"), FighterOutcome(entry=0, xp=4)]
    after, states, placed = apply(
        traits_of("necrowarzone"), document, ["recovering"], outcomes, corrects=1, apart=True
    )
    assert [(e.get("id"), e["count"], e["custom"]["xp"]) for e in after["entries"]] == [
        ("g5", 3, 10),
        (None, 1, 10),
        (None, 1, 14),
    ]
    assert states == ["recovering", "dead", "recovering"]
    assert [p.entry for p in placed] == [1, 2]
    # Without `figures_apart` the line speaks of the whole entry, named once.
    whole, states, _ = apply(traits_of("necrowarzone"), document, [], outcomes[:1])
    assert whole["entries"] == [five] and states == ["dead"]
    # All five named: the entry itself is the last of them.
    every = [FighterOutcome(entry=0, xp=1)] * 5
    after, _, placed = apply(traits_of("necrowarzone"), document, [], every, apart=True)
    assert [(e.get("id"), e["count"]) for e in after["entries"]] == [("g5", 1), *[(None, 1)] * 4]
    with pytest.raises(LedgerError) as refused:
        apply(traits_of("necrowarzone"), document, [], every * 2, apart=True)
    assert refused.value.code == "fighter_twice"

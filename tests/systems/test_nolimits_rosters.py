"""No Limits rosters: unit composition (L88-121), the general (L101-102), reserve and
infiltration (L313-319), the army banner (L366), victory points (L356-375), summaries.

Lnnn = line of shared/rules/no-limits.fr.txt.
"""

from typing import Any

import pytest

from app.catalogues import DATA_DIR, read_system_data
from app.systems.nolimits import NolimitsSystem, build
from app.systems.nolimits.score import NolimitsScoreRequest

FANTASSIN = {"AC": 9, "CT": 5, "CC": 5, "FO": 4, "EN": 5, "PV": 1, "CO": 5, "SV": 2}
GENERAL = {"unit": "sergent_personnage", "general": True}
BANNER = {"battle_standard": True}


@pytest.fixture(scope="module")
def nolimits() -> NolimitsSystem:
    data, _origin, problems = read_system_data(DATA_DIR / "nolimits")
    assert problems == []
    built = build(data)
    assert isinstance(built, NolimitsSystem), built
    return built


def validate(system: NolimitsSystem, *entries: dict[str, Any], **document: Any) -> Any:
    body = {"system": "nolimits", "entries": list(entries), **document}
    return system.validate(system.roster_model.model_validate(body))


def section(count: int, **extra: Any) -> dict[str, Any]:
    return {"unit": "section_de_fantassins", "count": count, **extra}


def issues(result: Any) -> list[tuple[str, str, str]]:
    """Every issue of a validated roster: its entries' (each in its own list), then the list's."""
    every = [issue for entry in result.entries for issue in entry.issues] + result.issues
    return [(i.severity, i.code, i.path) for i in every]


def test_example_roster(nolimits: NolimitsSystem) -> None:
    # Caserne's own list (the text prints none): its total is what Caserne's system gives.
    [example] = nolimits.example_rosters()
    result = nolimits.validate(nolimits.roster_model.model_validate(example.document))
    assert result.points == example.printed_total == 988
    assert [(e.name, e.points) for e in result.entries] == [
        ("Sergent-chef", 49),
        ("Première section", 7 * 28 + 49 + (28 + 15)),  # + a specialist with an épée
        ("Deuxième section", 5 * 28),
        ("Éclaireurs", 4 * 28 + 49),
        ("Titan Destroyer", 350),
    ]
    assert result.valid
    # The Titan's equipment without a profile (L230-233) is listed, not priced: four
    # warnings on the Titan's entry, none repeated in the list's own issues.
    assert result.issues == []
    assert [i.code for i in result.entries[4].issues] == ["unpriced_equipment"] * 4
    assert result.derived.general == 0 and result.derived.battle_standard == 1
    assert result.derived.models == 1 + 9 + 5 + 5 + 1


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        # L120 "De 4 à 8 fantassins par unité", a guideline like L89's "en général, elles
        # contiennent de 4 à 20 figurines": outside it, a warning.
        (section(4), []),
        (section(8, leader="sergent"), []),
        (section(3), [("warning", "unit_size", "entries[1].count")]),
        (section(9), [("warning", "unit_size", "entries[1].count")]),
        # Specialists stand in the ranks (L94-95): 7 + 2 = 9 fantassins.
        (
            section(7, specialists=[{"count": 2, "weapons": ["fusil_d_assaut"]}]),
            [("warning", "unit_size", "entries[1].count")],
        ),
        # L115 "De 0 à 1 chef d'unité": only the Sergent leads this section.
        (
            section(4, leader="fantassin"),
            [("error", "leader_not_allowed", "entries[1].leader")],
        ),
        # A catalogue unit keeps its category.
        (
            section(4, category="soutien"),
            [("error", "category_mismatch", "entries[1].category")],
        ),
    ],
)
def test_section_composition(
    nolimits: NolimitsSystem, entry: dict[str, Any], expected: list[tuple[str, str, str]]
) -> None:
    result = validate(nolimits, GENERAL, {**entry, **BANNER})
    assert issues(result) == expected


def test_unit_size_is_a_guideline(nolimits: NolimitsSystem) -> None:
    # L89: "Ces unités peuvent varier en taille mais en général, elles contiennent de 4 à 20
    # figurines": a section of 3 is played, with a warning.
    result = validate(nolimits, GENERAL, section(3, **BANNER))
    assert result.valid
    [warned] = result.entries[1].issues
    assert (warned.severity, warned.code) == ("warning", "unit_size")
    assert "L89" in warned.message


def test_a_catalogue_character_is_one_model(nolimits: NolimitsSystem) -> None:
    # L96-100: characters and heroes are individuals; unit sizes being guidelines (L89)
    # does not make two Sergents one character.
    result = validate(nolimits, {**GENERAL, "count": 2, **BANNER})
    assert issues(result) == [("error", "character_not_single", "entries[0].count")]
    assert not result.valid


def test_entry_issues_stay_on_their_entry(nolimits: NolimitsSystem) -> None:
    # One shape of answer: an entry's issues in entries[i].issues, the list's own in
    # `issues`, never both; an entry's error still makes the list invalid.
    result = validate(nolimits, GENERAL, section(4, leader="fantassin"))
    assert [(i.code, i.path) for i in result.entries[1].issues] == [
        ("leader_not_allowed", "entries[1].leader")
    ]
    assert [(i.code, i.path) for i in result.issues] == [("no_battle_standard", "entries")]
    assert not result.valid
    summary = nolimits.summarize(
        nolimits.roster_model.model_validate(
            {"system": "nolimits", "entries": [GENERAL, section(4, leader="fantassin")]}
        ),
        result,
    )
    assert [i.code for i in summary.issues] == ["no_battle_standard"]
    assert not summary.valid


def test_custom_units(nolimits: NolimitsSystem) -> None:
    trooper = {"profile": FANTASSIN, "weapons": ["fusil_d_assaut"]}
    result = validate(
        nolimits,
        GENERAL,
        {"custom": trooper, "name": "Milice", "count": 3, **BANNER},  # L89 "de 4 à 20"
        {"custom": {**trooper, "size": "tres_grande"}, "count": 1},
        {"custom": trooper, "category": "personnage", "count": 2, "leader": "sergent"},
    )
    assert issues(result) == [
        ("warning", "base_unit_size", "entries[1].count"),
        ("error", "character_not_single", "entries[3].count"),
        ("error", "leader_not_allowed", "entries[3].leader"),
    ]
    # A very large custom model is a very large unit unless told otherwise (note 10).
    assert result.entries[2].derived.category == "tres_grande_taille"
    milice = result.entries[1]
    assert (milice.name, milice.count, milice.unit_points, milice.points) == ("Milice", 3, 28, 84)


def test_custom_leader_and_specialist_issues_have_full_paths(nolimits: NolimitsSystem) -> None:
    leader = {"profile": FANTASSIN, "abilities": [{"name": "Meneur", "points": 3}]}
    specialist = {"count": 1, "weapons": [{"name": "Arc", "CdA": 1, "FO": 4, "DG": 1}]}
    result = validate(
        nolimits, GENERAL, section(4, leader=leader, specialists=[specialist], **BANNER)
    )
    assert issues(result) == [
        ("error", "leader_not_allowed", "entries[1].leader"),
        ("warning", "house_rule", "entries[1].leader.abilities[0]"),
        ("error", "ranged_weapon_without_range", "entries[1].specialists[0].weapons[0].PL"),
        ("error", "missing_cu", "entries[1].specialists[0].weapons[0].CU"),
    ]


def test_general(nolimits: NolimitsSystem) -> None:
    # L101-102 "Une figurine ... sera désignée comme étant le commandant en chef. Il peut
    # s'agir d'un personnage ou d'un Héros."
    assert issues(validate(nolimits, section(4, **BANNER))) == [("error", "no_general", "entries")]
    result = validate(nolimits, GENERAL, GENERAL, section(4, general=True, **BANNER))
    assert issues(result) == [
        ("error", "several_generals", "entries[1].general"),
        ("error", "general_not_character", "entries[2].general"),
        ("error", "several_generals", "entries[2].general"),
    ]


def test_battle_standard(nolimits: NolimitsSystem) -> None:
    # L366: "la bannière d'armée" — one per army.
    assert issues(validate(nolimits, GENERAL, section(4))) == [
        ("warning", "no_battle_standard", "entries")
    ]
    result = validate(nolimits, {**GENERAL, **BANNER}, section(4, **BANNER))
    assert issues(result) == [("error", "several_battle_standards", "entries[1].battle_standard")]


def test_infiltration_at_most_six(nolimits: NolimitsSystem) -> None:
    # L317 "Une unité s'infiltrant de peut jamais comporter plus de six figurines."
    six = section(5, leader="sergent", placement="infiltration", **BANNER)
    assert issues(validate(nolimits, GENERAL, six)) == []
    seven = section(6, leader="sergent", placement="infiltration", **BANNER)
    assert issues(validate(nolimits, GENERAL, seven)) == [
        ("error", "infiltration_too_large", "entries[1].placement")
    ]
    # L314 "N'importe quelle unité peut être placée en réserve."
    reserve = section(8, leader="sergent", placement="reserve", **BANNER)
    assert issues(validate(nolimits, GENERAL, reserve)) == []


def test_points_limit(nolimits: NolimitsSystem) -> None:
    result = validate(nolimits, GENERAL, section(8, **BANNER), points_limit=250)
    assert result.points == 49 + 8 * 28
    assert issues(result) == [("error", "over_points_limit", "points_limit")]


def test_empty_roster_is_only_a_warning(nolimits: NolimitsSystem) -> None:
    assert issues(validate(nolimits)) == [("warning", "empty_roster", "")]


def test_summary_marks_parts_and_house_rules(nolimits: NolimitsSystem) -> None:
    custom = {
        "profile": FANTASSIN,
        "weapons": ["fusil_d_assaut"],
        "abilities": [{"name": "Sang-froid", "points": 4}],
    }
    document = {
        "system": "nolimits",
        "name": "Essai",
        "entries": [
            GENERAL,
            section(4, leader="sergent", **BANNER),
            {"custom": custom, "name": "Vétérans", "count": 4},
        ],
        "extras": {"army": "Marines de l'Humanité"},
    }
    roster = nolimits.roster_model.model_validate(document)
    summary = nolimits.summarize(roster, nolimits.validate(roster))
    assert [(line.group, line.name, line.count, line.points_each, line.points)
            for line in summary.lines] == [
        ("1. Sergent (personnage)", "Sergent", 1, 49, 49),
        ("2. Section de fantassins", "Fantassin", 4, 28, 112),
        ("2. Section de fantassins", "Sergent (chef d'unité)", 1, 49, 49),
        ("3. Vétérans", "Vétérans", 4, 32, 128),
    ]  # fmt: skip
    assert summary.points == sum(line.points for line in summary.lines) == 338
    fantassin = summary.lines[1]
    assert fantassin.details[:2] == [
        "AC 9 CT 5 CC 5 FO 4 EN 5 PV 1 CO 5 SV 2",
        "Fusil d'assaut (CU 4, 10/+1 20/+0 30/−1, FO 6, MA −2, CdA 1, DG 1, Baïonnette)",
    ]
    assert [b.text for b in fantassin.badges] == ["Unité de base", "Bannière d'armée"]
    assert summary.lines[3].house_rules == ["Sang-froid (4 pts)"]
    assert [i.code for i in summary.lines[3].issues] == ["house_rule"]
    assert summary.notes[0] == "Armée : Marines de l'Humanité"


def test_titan_summary_shows_its_damage_track(nolimits: NolimitsSystem) -> None:
    roster = nolimits.roster_model.model_validate(
        {"system": "nolimits", "entries": [GENERAL, {"unit": "titan_destroyer", **BANNER}]}
    )
    summary = nolimits.summarize(roster, nolimits.validate(roster))
    assert summary.lines[1].details[-2:] == [
        "Non chiffré : Canon d'assaut frontal, Grenades Anti-Personnelles, "
        "Grenades fumigènes, Réacteurs dorsaux",
        "Indicateur de dégâts : 1 2 3 Mv Ar / 6 7 Mv 9 Ar / 11 Mv 13 14",  # L236-238
    ]


def score(system: NolimitsSystem, **request: Any) -> Any:
    return system.score(NolimitsScoreRequest.model_validate(request))


def test_victory_points(nolimits: NolimitsSystem) -> None:
    result = score(
        nolimits,
        eliminated=[{"name": "Fantassin", "points": 28, "count": 5}],  # L359
        general_points=49,  # L364 "le double des points de victoires"
        terrain_held=1,  # L365 "+100 points de victoire"
        enemy_banner=True,  # L366 "+50 points de victoire"
    )
    assert [(line.id, line.points) for line in result.breakdown] == [
        ("elimines_0", 140),
        ("general", 98),
        ("decor_designe", 100),
        ("banniere", 50),
    ]
    assert result.points == 388


def test_concession(nolimits: NolimitsSystem) -> None:
    # L375: "l'intégralité des points de victoire pour les pertes infligées à l'ennemi plus
    # la moitié des points des figurines survivantes" (rounded down).
    result = score(
        nolimits,
        eliminated=[{"points": 350}],
        enemy_conceded=True,
        enemy_survivors_points=301,
    )
    assert result.points == 350 + 150
    # Survivors only count when the enemy concedes.
    assert score(nolimits, enemy_survivors_points=301).points == 0

"""Lists typed by hand, as forums hold them (issue 30, « Done when »: misspellings, extra
words, plurals, accents and case, unknown lines): every line is matched as a player would
expect, or shown « non reconnu » with the closest names, never silently dropped."""

from typing import Any

from app.imports.checks import checked_text
from app.imports.reading import Imported, read_text
from app.systems.base import AnySystem


def read(systems: dict[str, AnySystem], text: str, system: str | None = None) -> Imported:
    return read_text(systems, system, checked_text(text))


def lines(imported: Imported) -> list[tuple[str, int | None, str]]:
    return [(line.status, line.entry, line.note) for line in imported.lines]


def entries(imported: Imported) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in entry.items() if v not in (None, [], False)}
        for entry in imported.document.model_dump(mode="json")["entries"]
    ]


SG = """Ma liste SG pour samedi (200 pts)

[b]Équipe SG-1[/b]
1x Jack O'Neil
1 x Samantha Carter
Teal'c - 77pts
2 Membres groupe SG (30 pts)
Jafa x3
3 x Jaffa de base
1 Chef de groupe SG avec arme d'assaut
Renfort :
2 x Jaffas
Coup caché : Raid aérien
1 x Ori-truc
Total : 200 pts"""


def test_a_stargate_forum_list(systems: dict[str, AnySystem]) -> None:
    imported = read(systems, SG)
    assert (imported.system.id, imported.shape) == ("dcsystem", "typed")
    assert lines(imported) == [
        ("ignored", None, "nom de la liste"),
        ("ignored", None, ""),
        ("ignored", None, "titre de groupe"),
        ("matched", 0, ""),
        ("matched", 1, ""),  # « Samantha Carter / Daniel Jackson » by one of its names
        ("matched", 2, ""),  # « - 77pts »: Teal'c's cost, the same as Caserne's
        ("matched", 3, ""),  # « Membres », plural; « (30 pts) » each
        ("matched", 4, "lu comme « Jaffa »"),  # misspelled
        ("matched", 5, "lu comme « Jaffa »"),  # extra words
        ("matched", 6, ""),  # « avec arme d'assaut »: the profile of that name
        ("ignored", None, "titre de groupe"),
        ("matched", 7, ""),  # under « Renfort : »: in the Renfort group
        ("matched", None, "coup caché : Raid aérien"),
        ("unknown", None, "non reconnu"),
        ("ignored", None, "total imprimé ; Caserne compte : 524 / 200 points"),
    ]
    assert entries(imported) == [
        {"unit": "jack_o_neil", "count": 1},
        {"unit": "samantha_carter_daniel_jackson", "count": 1},
        {"unit": "teal_c", "count": 1},
        {"unit": "membre_groupe_sg", "count": 2},
        {"unit": "jaffa", "count": 3},
        {"unit": "jaffa", "count": 3},
        {"unit": "chef_de_groupe_sg_arme_d_assaut", "count": 1},
        {"unit": "jaffa", "count": 2, "group": "renfort"},
    ]
    document = imported.document.model_dump(mode="json")
    assert (document["name"], document["points_limit"]) == ("Ma liste SG pour samedi", 200)
    assert document["extras"]["hidden_moves"] == ["raid_aerien"]
    assert [c.id for c in imported.lines[13].candidates] == ["mortier_groupe_sg"]


def test_a_typed_line_chosen_among_the_closest_names(systems: dict[str, AnySystem]) -> None:
    """« non reconnu », then the player's choice (by line number) makes it an entry."""
    text = "2 x Jaffa\n3 x Goold\n"
    first = read(systems, text, "dcsystem")
    assert lines(first)[1] == ("unknown", None, "non reconnu")
    assert [c.name for c in first.lines[1].candidates] == ["Goa'uld"]
    chosen = read_text(systems, "dcsystem", checked_text(text), {1: "goauld"})
    assert lines(chosen)[1] == ("matched", 1, "choisi : « Goa'uld »")
    assert entries(chosen) == [{"unit": "jaffa", "count": 2}, {"unit": "goauld", "count": 3}]


INFINITY = """Brumeval 300 pts
Groupe 1 :
- Sergent vétéran (Lieutenant, Fusil lourd) 26pts
- 3x Gardes de Brumeval
- Garde de Brumeval avec mitrailleuse lourde
- Chirurgienne de campagne
- tisseuse de code x1
Groupe 2 :
- 2 Maraudeurs
- Sauteur de brume (fusil d'assaut)
- 1 x Drone inconnu
SWC 2/6"""


def test_an_infinity_forum_list(systems: dict[str, AnySystem]) -> None:
    imported = read(systems, INFINITY)
    assert imported.system.id == "infinity"
    assert [(s, e) for s, e, _note in lines(imported)] == [
        ("ignored", None),
        ("ignored", None),
        *[("matched", n) for n in range(5)],
        ("ignored", None),
        ("matched", 5),
        ("matched", 6),
        ("unknown", None),
        ("ignored", None),
    ]
    assert [(e["unit"], e["option"], e["count"], e["group"]) for e in entries_of(imported)] == [
        ("sergent_veteran", "fusil_lourd_lt", 1, 1),
        ("garde_de_brumeval", "fusil", 3, 1),  # the trooper alone: its first option
        ("garde_de_brumeval", "mitrailleuse", 1, 1),
        ("chirurgienne_de_campagne", "pistolet", 1, 1),
        ("tisseuse_de_code", "pistolet_repeteur", 1, 1),
        ("maraudeur", "fusil", 2, 2),
        ("sauteur_de_brume", "fusil", 1, 2),
    ]
    assert imported.lines[11].note == "total imprimé ; Caserne compte : SWC 2.5/6 | points 156/300"


def entries_of(imported: Imported) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = imported.document.model_dump(mode="json")["entries"]
    return found


def test_a_gang_typed_with_a_bold_title_and_counts_in_words(
    systems: dict[str, AnySystem],
) -> None:
    text = "**Les Rats de la Ruche**\nChef de gang\n1x Ganger à l'arme lourde\n4 gangers\n"
    text += "Novices x2\ndeux novices\nun juve\n"
    imported = read(systems, text)
    assert imported.system.id == "necrowarzone"
    assert imported.document.model_dump()["name"] == "Les Rats de la Ruche"
    assert lines(imported) == [
        ("ignored", None, "nom de la liste"),
        ("matched", 0, ""),  # a name alone: one figure
        ("matched", 1, ""),  # « l'arme », typed with a straight apostrophe
        ("matched", 2, ""),
        ("matched", 3, ""),
        ("matched", 4, ""),
        ("unknown", None, "non reconnu"),  # no juve in the text's figures
        ("ignored", None, ""),
    ]
    assert entries(imported) == [
        {"unit": "chef_de_gang", "count": 1},
        {"unit": "ganger_arme_lourde", "count": 1},
        {"unit": "ganger", "count": 4},
        {"unit": "novice", "count": 2},
        {"unit": "novice", "count": 2},
    ]


def test_a_band_and_a_company_typed(systems: dict[str, AnySystem]) -> None:
    band = read(
        systems,
        "Ma bande pour ce soir\nSergent Rooko\n2 x Rebelles anonymes\nBleu x2\n"
        "1 Chef de section\nLe Grand Méchant",
    )
    assert band.system.id == "bastos"
    assert [s for s, _e, _n in lines(band)] == ["ignored", *["matched"] * 4, "unknown"]
    assert entries(band) == [
        {"unit": "sergent_rooko", "count": 1},
        {"unit": "rebelle", "count": 2},
        {"unit": "bleu", "count": 2},
        {"unit": "chef_de_section", "count": 1},
    ]
    company = read(
        systems,
        "Compagnie d'assaut 1000 pts\n1 Sergent (personnage)\n6 x Fantassins\n"
        "Section de fantassins x5\nTitan Destroyer - 350 pts\n2 Space Marines",
    )
    assert company.system.id == "nolimits"
    assert company.document.model_dump()["points_limit"] == 1000
    assert [s for s, _e, _n in lines(company)] == ["ignored", *["matched"] * 4, "unknown"]
    assert [(e["unit"], e["count"]) for e in entries_of(company)] == [
        ("sergent_personnage", 1),
        ("section_de_fantassins", 6),  # « Fantassins »: the section's troopers
        ("section_de_fantassins", 5),
        ("titan_destroyer", 1),
    ]


def test_a_printed_cost_that_differs_is_said(systems: dict[str, AnySystem]) -> None:
    imported = read(systems, "2 x Jaffa (25 pts chacun, 50 pts)\nTeal'c (90 pts)", "dcsystem")
    assert lines(imported) == [
        ("matched", 0, "imprimé 25 pts, Caserne compte 30 pts"),
        ("matched", 1, "imprimé 90 pts, Caserne compte 77 pts"),
    ]
